package flowtest.conformance.primitives;

import flowtest.support.JdkPeer;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** A read of a plain JDK socket's stream that a plain thread writes: it waits inside the JDK, reported. */
public final class JdkSocketReadFromWritingThread implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        try (ServerSocket server = JdkPeer.listen(); Socket socket = JdkPeer.connect(server)) {
            Future<String> written = JdkPeer.writes(server, new byte[] {4, 5});
            InputStream in = socket.getInputStream();
            byte[] two = new byte[2];
            int n = in.readNBytes(two, 0, 2);
            int end = in.read();
            return n + " bytes " + two[0] + two[1] + ", then " + end + ", " + written.get(5, TimeUnit.SECONDS);
        }
    }
}
