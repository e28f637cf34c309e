package flowtest.conformance.primitives;

import flowtest.support.JdkPeer;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** {@code readAllBytes} of a plain JDK socket's stream that a plain thread writes and closes: it waits inside the JDK, reported. */
public final class JdkSocketReadAllBytesFromWritingThread implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        try (ServerSocket server = JdkPeer.listen(); Socket socket = JdkPeer.connect(server)) {
            String written = JdkPeer.writes(server, new byte[] {1, 2, 3}).get(5, TimeUnit.SECONDS);
            return Arrays.toString(socket.getInputStream().readAllBytes()) + ", " + written;
        }
    }
}
