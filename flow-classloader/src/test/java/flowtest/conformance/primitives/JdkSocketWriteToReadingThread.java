package flowtest.conformance.primitives;

import flowtest.support.JdkPeer;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Writes to a plain JDK socket's stream that a plain thread reads: a write can wait inside the JDK, reported. */
public final class JdkSocketWriteToReadingThread implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        try (ServerSocket server = JdkPeer.listen(); Socket socket = JdkPeer.connect(server)) {
            Future<String> read = JdkPeer.readsAll(server);
            OutputStream out = socket.getOutputStream();
            out.write(new byte[] {6, 7});
            out.write(8);
            socket.shutdownOutput();
            return "read " + read.get(5, TimeUnit.SECONDS);
        }
    }
}
