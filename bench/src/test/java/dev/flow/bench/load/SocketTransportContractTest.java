package dev.flow.bench.load;

import dev.flow.TransportConfig;
import dev.flow.TransportContractTest;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;

/**
 * The transport contract for the bench's {@link SocketTransport} (a plain blocking socket
 * transport; the continuation-mode variants are skipped: it is not an {@code AsyncTransport}). A
 * socket read cannot be interrupted, so timeouts run the test in a separate thread.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SocketTransportContractTest extends TransportContractTest {

    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void release() throws Exception {
        for (AutoCloseable r : resources) {
            r.close();
        }
        resources.clear();
    }

    @Override
    protected Connection connect(TransportConfig config) throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (ServerSocket server = new ServerSocket(0, 1, loopback)) {
            server.setSoTimeout(5000);
            Socket client = new Socket(loopback, server.getLocalPort());
            Socket accepted = server.accept();
            resources.add(client);
            resources.add(accepted);
            return new Connection(new SocketTransport(accepted, config), new Peer(client));
        }
    }

    /** A thread in a socket read is RUNNABLE in native code: look for the transport's read on its stack. */
    @Override
    protected boolean isWaiting(Thread reader) {
        for (StackTraceElement e : reader.getStackTrace()) {
            if (e.getClassName().equals(SocketTransport.class.getName()) && e.getMethodName().equals("fill")) {
                for (StackTraceElement top : reader.getStackTrace()) {
                    if (top.getClassName().startsWith("sun.nio.ch.") || top.isNativeMethod()) {
                        return true;
                    }
                }
            }
        }
        return super.isWaiting(reader);
    }

    /** The client end: a plain socket with bounded reads. */
    private static final class Peer implements TransportContractTest.Peer {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;

        Peer(Socket socket) throws IOException {
            this.socket = socket;
            socket.setSoTimeout(5000);
            socket.setTcpNoDelay(true);
            this.in = socket.getInputStream();
            this.out = socket.getOutputStream();
        }

        @Override
        public void write(byte[] bytes) throws IOException {
            out.write(bytes);
            out.flush();
        }

        @Override
        public byte[] readExactly(int n) throws IOException {
            byte[] b = new byte[n];
            new DataInputStream(in).readFully(b);
            return b;
        }

        @Override
        public void awaitEndOfStream() throws IOException {
            int b = in.read();
            if (b != -1) {
                throw new AssertionError("expected end of stream, got byte " + b);
            }
        }

        @Override
        public void shutdownOutput() throws IOException {
            socket.shutdownOutput();
        }

        @Override
        public void reset() throws IOException {
            socket.setSoLinger(true, 0);
            socket.close();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
