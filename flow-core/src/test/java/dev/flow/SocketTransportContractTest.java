package dev.flow;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;

/**
 * The transport contract for the blocking socket transport of {@link Transport#ofSocket} (not an
 * {@code AsyncTransport}: the continuation-mode variants are skipped). A socket read cannot be
 * interrupted, so timeouts run the test in a separate thread.
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
            return new Connection(Transport.ofSocket(accepted, config), new PlainSocketPeer(client));
        }
    }

    /** A thread in a socket read is RUNNABLE in native code: look for the transport's read on its stack. */
    @Override
    protected boolean isWaiting(Thread reader) {
        StackTraceElement[] stack = reader.getStackTrace();
        boolean filling = false;
        boolean inSocket = false;
        for (StackTraceElement e : stack) {
            filling |= e.getClassName().equals(SocketTransport.class.getName()) && e.getMethodName().equals("fill");
            inSocket |= e.getClassName().startsWith("sun.nio.ch.") || e.isNativeMethod();
        }
        return filling && inSocket || super.isWaiting(reader);
    }
}
