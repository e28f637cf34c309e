package flowtest.conformance.supercalls;

import flowtest.support.Async;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.Callable;

/** {@code ByteArrayInputStream}, {@code FilterInputStream} and {@code BufferedInputStream} subclasses whose reads call {@code super.read}. */
public final class InputStreamsCallSuper implements Callable<Object> {

    static final class Shifted extends ByteArrayInputStream {
        Shifted(byte[] b) {
            super(b);
        }

        @Override
        public synchronized int read() {
            int c = super.read();
            return c < 0 ? c : c + 1;
        }

        @Override
        public int read(byte[] b) throws IOException {
            return 100 + super.read(b);
        }

        @Override
        public int readNBytes(byte[] b, int off, int len) {
            return 200 + super.readNBytes(b, off, len);
        }
    }

    static final class Counting extends FilterInputStream {
        int reads;

        Counting(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            reads++;
            return super.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            reads += 10;
            return super.read(b, off, len);
        }
    }

    static final class Buffered extends BufferedInputStream {
        int reads;

        Buffered(InputStream in) {
            super(in, 2);
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) throws IOException {
            reads++;
            return super.read(b, off, len);
        }

        @Override
        public synchronized int read() throws IOException {
            reads += 10;
            return super.read();
        }
    }

    @Override
    public Object call() throws Exception {
        byte[] data = Async.later(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}).get();
        StringBuilder out = new StringBuilder();
        InputStream s = new Shifted(data);
        byte[] two = new byte[2];
        out.append(s.read()).append(',').append(s.read(two)).append(',').append(s.readNBytes(two, 0, 2)).append(';');
        Counting c = new Counting(new ByteArrayInputStream(data));
        out.append(c.read()).append(',').append(c.read(two)).append(',').append(c.reads).append(';');
        Buffered b = new Buffered(new Counting(new ByteArrayInputStream(data)));
        out.append(b.read()).append(',').append(b.read(new byte[5], 0, 5)).append(',').append(b.reads).append(';');
        out.append(Async.later("end").get());
        return out.toString();
    }
}
