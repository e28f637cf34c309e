package flowtest.conformance.supercalls;

import flowtest.support.Async;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.Callable;

/** An {@code OutputStream} subclass whose {@code write(byte[])} and {@code write(byte[], int, int)} call {@code super}, which loops over {@code write(int)}. */
public final class OutputStreamWriteArrayCallsSuper implements Callable<Object> {

    static final class Summing extends OutputStream {
        final StringBuilder seen = new StringBuilder();

        @Override
        public void write(int b) {
            seen.append((char) b);
        }

        @Override
        public void write(byte[] b) throws IOException {
            seen.append('[');
            super.write(b);
            seen.append(']');
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            seen.append('(');
            super.write(b, off, len);
            seen.append(')');
        }

        @Override
        public void flush() throws IOException {
            seen.append('!');
            super.flush();
        }
    }

    @Override
    public Object call() throws Exception {
        Summing out = new Summing();
        out.write(new byte[] {'a', 'b'});
        out.write(Async.later('c').get());
        out.write(new byte[] {'x', 'd', 'e', 'y'}, 1, 2);
        out.flush();
        return out.seen.toString();
    }
}
