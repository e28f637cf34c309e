package flowtest.conformance.supercalls;

import flowtest.support.Async;
import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.Callable;

/** A {@code FilterOutputStream} subclass that upper-cases through {@code super.write(int)} and flushes through {@code super.flush()}. */
public final class FilterOutputCallsSuper implements Callable<Object> {

    static final class Upper extends FilterOutputStream {
        int flushes;

        Upper(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            super.write(Character.toUpperCase(b));
        }

        @Override
        public void flush() throws IOException {
            flushes++;
            super.flush();
        }
    }

    @Override
    public Object call() throws Exception {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (Upper out = new Upper(sink)) {
            out.write(Async.later("abc").get().getBytes("US-ASCII"));
            out.write('d');
            out.flush();
            return sink.toString("US-ASCII") + ":" + out.flushes;
        }
    }
}
