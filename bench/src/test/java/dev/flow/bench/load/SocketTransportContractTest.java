package dev.flow.bench.load;

import dev.flow.PlainSocketPeer;
import dev.flow.TransportConfig;
import dev.flow.TransportContractTest;
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
            return new Connection(new SocketTransport(accepted, config), new PlainSocketPeer(client));
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
}
