package flowtest.conformance.network;

import flowtest.support.JdkPeer;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Scanner;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * {@code nextLine} of a {@code Scanner} over an {@code InputStreamReader} this code made over a plain JDK socket's
 * stream: the reader is Flow's, called back by the Scanner's JDK frames, where it cannot suspend; reported where
 * the Scanner is made (this line, not Flow's reader method).
 */
public final class ScannerOverReaderOverJdkSocket implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        try (ServerSocket server = JdkPeer.listen(); Socket socket = JdkPeer.connect(server)) {
            Future<String> written = JdkPeer.writes(server, "hello\n".getBytes(StandardCharsets.US_ASCII));
            Scanner s = new Scanner(new InputStreamReader(JdkPeer.input(socket), StandardCharsets.US_ASCII));
            return s.nextLine() + ", " + written.get(5, TimeUnit.SECONDS);
        }
    }
}
