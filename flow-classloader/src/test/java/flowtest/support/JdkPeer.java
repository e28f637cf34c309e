package flowtest.support;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.Future;

/**
 * Test support outside the instrumented scope: a plain JDK server socket on 127.0.0.1 and a peer that
 * serves its one connection on a new thread ({@link Spawn#onThread}), for the cases that use plain JDK
 * sockets. Stateless.
 */
public final class JdkPeer {

    private JdkPeer() {
    }

    /** A server socket on 127.0.0.1, a free port, backlog 1. */
    public static ServerSocket listen() throws IOException {
        return new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    }

    /** A plain JDK socket connected to {@code server} (made here, outside the scope). */
    public static Socket connect(ServerSocket server) throws IOException {
        return new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
    }

    /** {@code socket}'s input stream, got here (outside the scope). */
    public static java.io.InputStream input(Socket socket) throws IOException {
        return socket.getInputStream();
    }

    /** Accepts one connection of {@code server} on a new thread, writes {@code bytes} and closes it; "written". */
    public static Future<String> writes(ServerSocket server, byte[] bytes) {
        return Spawn.onThread(() -> {
            try (Socket peer = server.accept()) {
                peer.getOutputStream().write(bytes);
            }
            return "written";
        });
    }

    /** Accepts one connection of {@code server} on a new thread and reads it to its end; the bytes as text. */
    public static Future<String> readsAll(ServerSocket server) {
        return Spawn.onThread(() -> {
            try (Socket peer = server.accept()) {
                return Arrays.toString(peer.getInputStream().readAllBytes());
            }
        });
    }
}
