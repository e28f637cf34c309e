package flowtest.conformance.primitives;

import flowtest.support.Spawn;
import java.io.PipedReader;
import java.io.PipedWriter;
import java.io.Reader;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Reads of a {@code PipedReader} that a plain thread writes ({@code read()}, {@code read(char[])}, through {@code Reader}): reported. */
public final class PipedReaderFromWritingThread implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        PipedWriter w = new PipedWriter();
        Reader r = new PipedReader(w);
        Future<Object> written = Spawn.onThread(() -> {
            w.write("hello");
            w.close();
            return "written";
        });
        int first = r.read();
        char[] rest = new char[8];
        int n = r.read(rest);
        StringBuilder tail = new StringBuilder();
        for (int c; (c = r.read()) >= 0; ) {
            tail.append((char) c);
        }
        return (char) first + "+" + new String(rest, 0, n) + tail + ", " + written.get(5, TimeUnit.SECONDS);
    }
}
