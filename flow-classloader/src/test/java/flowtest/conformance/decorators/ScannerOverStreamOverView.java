package flowtest.conformance.decorators;

import flowtest.support.ChunkedTransport;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.PushbackInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Scanner;
import java.util.concurrent.Callable;

/**
 * A {@code Scanner} this code made over a {@code DataInputStream}, a {@code PushbackInputStream} and a {@code
 * BufferedInputStream} (Flow's, as this code made them) over a transport's input view, after reading a line
 * through the buffered stream: reported where the Scanner is made, although Flow's stream already holds bytes.
 */
public final class ScannerOverStreamOverView implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        ChunkedTransport t = ChunkedTransport.of("ab one two\nthree".getBytes(StandardCharsets.UTF_8), 3);
        BufferedInputStream buffered = new BufferedInputStream(t.inputStream());
        String first = "" + (char) buffered.read() + (char) buffered.read();
        Scanner s = new Scanner(new DataInputStream(new PushbackInputStream(buffered)), StandardCharsets.UTF_8);
        return first + s.nextLine() + "," + s.next() + "," + s.hasNext();
    }
}
