package flowtest.conformance.supercalls;

import flowtest.support.Async;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.Callable;

/** A {@code BufferedOutputStream} subclass whose {@code flush}, {@code write} and {@code close} call {@code super} (pgjdbc's shape). */
public final class BufferedOutputFlushCallsSuper implements Callable<Object> {

    static final class Counting extends BufferedOutputStream {
        int flushes;
        int writes;

        Counting(OutputStream out) {
            super(out, 4);
        }

        @Override
        public void flush() throws IOException {
            flushes++;
            super.flush();
        }

        @Override
        public void write(int b) throws IOException {
            writes++;
            super.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            writes += 10;
            super.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            writes += 100;
            super.close();
        }
    }

    @Override
    public Object call() throws Exception {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        Counting out = new Counting(sink);
        out.write(Async.later(65).get());
        out.write(new byte[] {66, 67, 68, 69, 70}, 1, 3);
        out.write(new byte[] {71, 72});
        out.flush();
        String before = sink.toString("US-ASCII");
        out.write(Async.later(73).get());
        out.close();
        return before + ":" + sink.toString("US-ASCII") + ":" + out.flushes + ":" + out.writes;
    }
}
