package flowtest.conformance.primitives;

import flowtest.support.Spawn;
import java.io.PipedReader;
import java.io.PipedWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Waits with {@code ready()} and {@code Thread.sleep} (which suspends) until a {@code PipedReader} has chars, then
 * reads them ({@code read(char[], int, int)}, then {@code skip}): the reads are reported by site, whether or not they wait.
 */
public final class PipedReaderReadyLoop implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        PipedReader r = new PipedReader();
        PipedWriter w = new PipedWriter(r);
        Future<Object> written = Spawn.onThread(() -> {
            w.write("abcd");
            w.flush();
            return "written";
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!r.ready() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        char[] two = new char[2];
        int n = r.read(two, 0, 2);
        long skipped = r.skip(2);
        String result = n + " " + new String(two) + " skipped " + skipped + ", " + written.get(5, TimeUnit.SECONDS);
        w.close();
        return result;
    }
}
