package flowtest.conformance.primitives;

import flowtest.support.JdkPeer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** {@code readLine} of a {@code BufferedReader} this code made over a plain JDK socket's stream: reported at this call. */
public final class JdkSocketThroughBufferedReader implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        try (ServerSocket server = JdkPeer.listen(); Socket socket = JdkPeer.connect(server)) {
            Future<String> written = JdkPeer.writes(server, "hello\n".getBytes(StandardCharsets.US_ASCII));
            BufferedReader r = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            return r.readLine() + ", " + written.get(5, TimeUnit.SECONDS);
        }
    }
}
