package flowtest.conformance.network;

import java.util.Scanner;
import java.util.concurrent.Callable;

/** A {@code Scanner} over a string never waits: not reported. */
public final class ScannerOverStringIsNotReported implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Scanner s = new Scanner("one 2\nthree");
        return s.next() + " " + s.nextInt() + " " + s.hasNextLine() + " " + s.nextLine() + s.nextLine();
    }
}
