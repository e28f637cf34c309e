package flowtest.conformance.decorators;

import flowtest.support.Async;
import flowtest.support.ChunkedTransport;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code FilterOutputStream} over a transport's output view: a library-style subclass that buffers (as pgjdbc's
 * {@code PgBufferedOutputStream}: {@code write} and {@code flush} overridden, {@code write(byte[])} and {@code
 * close()} inherited, so the JDK's {@code close} calls back the subclass's {@code flush}), the plain class, a
 * failing flush and close, argument errors and use after close.
 */
public final class FilterOutputSubclass implements Callable<Object> {

    /** Buffers four bytes; writes them to {@code out} when full and on {@code flush}. */
    static final class Buffered extends FilterOutputStream {
        private final byte[] buf = new byte[4];
        private int count;

        Buffered(OutputStream out) {
            super(out);
        }

        private void flushBuffer() throws IOException {
            if (count > 0) {
                out.write(buf, 0, count);
                count = 0;
            }
        }

        @Override
        public void write(int b) throws IOException {
            if (count == buf.length) {
                flushBuffer();
            }
            buf[count++] = (byte) b;
        }

        @Override
        public void flush() throws IOException {
            flushBuffer();
            super.flush();
        }
    }

    /** Fails every write and its close, each with its own message. */
    static final class Failing extends OutputStream {
        private final String closeMessage;

        Failing(String closeMessage) {
            this.closeMessage = closeMessage;
        }

        @Override
        public void write(int b) throws IOException {
            throw new IOException("write refused");
        }

        @Override
        public void close() throws IOException {
            if (closeMessage != null) {
                throw new IOException(closeMessage);
            }
        }
    }

    @Override
    public Object call() throws Exception {
        Battery b = new Battery();
        b.step("first", () -> Async.later("awaited").get());
        b.step("subclass closes through flush", () -> {
            ChunkedTransport t = new ChunkedTransport(List.of());
            Buffered o = new Buffered(t.outputStream());
            o.write('a');
            o.write(new byte[] {'b', 'c', 'd', 'e', 'f'});
            String early = Battery.hex(t.written());
            o.close();
            String closed = Battery.hex(t.written());
            o.close();
            return early + "|" + closed + "|" + Battery.hex(t.written());
        });
        b.step("plain filter", () -> {
            ChunkedTransport t = new ChunkedTransport(List.of());
            FilterOutputStream f = new FilterOutputStream(t.outputStream());
            f.write(new byte[] {1, 2, 3}, 1, 2);
            f.write(new byte[] {4});
            f.write(0x105);
            f.flush();
            f.close();
            f.close();
            return Battery.hex(t.written());
        });
        b.step("flush fails, close fails", () -> {
            Buffered o = new Buffered(new Failing("close refused"));
            o.write('x');
            try {
                o.close();
                return "closed";
            } catch (IOException e) {
                return e.getMessage() + " suppressed " + e.getSuppressed()[0].getMessage();
            }
        });
        b.step("flush fails, close succeeds", () -> {
            Buffered o = new Buffered(new Failing(null));
            o.write('x');
            o.close();
            return "closed";
        });
        b.step("closed after a failed close", () -> {
            Buffered o = new Buffered(new Failing(null));
            o.write('x');
            try {
                o.close();
            } catch (IOException e) {
                // the second close returns at once
            }
            o.close();
            return "closed twice";
        });
        b.step("bounds", () -> {
            new FilterOutputStream(new ChunkedTransport(List.of()).outputStream()).write(new byte[2], 1, 2);
            return "written";
        });
        b.step("negative length", () -> {
            new Buffered(new ChunkedTransport(List.of()).outputStream()).write(new byte[2], 0, -1);
            return "written";
        });
        b.step("null array", () -> {
            new FilterOutputStream(new ChunkedTransport(List.of()).outputStream()).write(null, 0, 1);
            return "written";
        });
        b.step("null one-argument array", () -> {
            new Buffered(new ChunkedTransport(List.of()).outputStream()).write(null);
            return "written";
        });
        b.step("written after close", () -> {
            ChunkedTransport t = new ChunkedTransport(List.of());
            FilterOutputStream f = new FilterOutputStream(t.outputStream());
            f.close();
            f.write(7);
            f.flush();
            return Battery.hex(t.written());
        });
        return b.toString();
    }
}
