package flowtest.conformance.primitives;

import flowtest.support.Spawn;
import java.io.PipedReader;
import java.io.PipedWriter;
import java.io.Reader;
import java.io.Writer;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Writes to a {@code PipedWriter} past its reader's buffer while a plain thread reads ({@code write(String)},
 * {@code append}, {@code write(int)} through {@code Writer}): the waits for room are reported.
 */
public final class PipedWriterToReadingThread implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        PipedReader in = new PipedReader(4);
        Writer out = new PipedWriter(in);
        Future<String> read = Spawn.onThread(() -> drain(in));
        try {
            out.write("0123456789");
            out.append("ab").append('c');
            out.write('d');
        } finally {
            out.close();
        }
        return "read " + read.get(5, TimeUnit.SECONDS);
    }

    private static String drain(Reader in) throws Exception {
        StringBuilder b = new StringBuilder();
        for (int c; (c = in.read()) >= 0; ) {
            b.append((char) c);
        }
        return b.toString();
    }
}
