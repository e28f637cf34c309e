package flowtest.conformance.decorators;

import flowtest.support.ChunkedTransport;
import java.nio.charset.StandardCharsets;
import java.util.Scanner;
import java.util.concurrent.Callable;

/**
 * {@code nextLine} of a {@code Scanner} this code made over a transport's input view, its bytes arriving a few
 * at a time: read directly, the view suspends, but the Scanner reads it inside the JDK's frames; reported where
 * the Scanner is made.
 */
public final class ScannerOverView implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        ChunkedTransport t = ChunkedTransport.of("one two\nthree".getBytes(StandardCharsets.UTF_8), 3);
        Scanner s = new Scanner(t.inputStream(), StandardCharsets.UTF_8);
        return s.nextLine() + "," + s.next() + "," + s.hasNext();
    }
}
