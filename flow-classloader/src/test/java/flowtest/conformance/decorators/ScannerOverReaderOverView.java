package flowtest.conformance.decorators;

import flowtest.support.ChunkedTransport;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Scanner;
import java.util.concurrent.Callable;

/**
 * {@code nextLine} of a {@code Scanner} this code made over a {@code BufferedReader} and an {@code
 * InputStreamReader} (Flow's, as this code made them) over a transport's input view whose bytes arrive a few
 * at a time: the readers suspend when read directly, but the Scanner calls them back from the JDK's frames;
 * reported where the Scanner is made, not inside Flow's reader.
 */
public final class ScannerOverReaderOverView implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        ChunkedTransport t = ChunkedTransport.of("one two\nthree".getBytes(StandardCharsets.UTF_8), 3);
        BufferedReader in = new BufferedReader(new InputStreamReader(t.inputStream(), StandardCharsets.UTF_8));
        Scanner s = new Scanner(in);
        return s.nextLine() + "," + s.next() + "," + s.hasNext();
    }
}
