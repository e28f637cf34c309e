package dev.flow.jdk;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * A {@link BufferedOutputStream} whose writes and flushes suspend a flow where the JDK's would block
 * inside its own frames: the {@code ContinuationClassLoader} creates one wherever loaded code creates
 * a {@code BufferedOutputStream}, and makes in-scope subclasses extend it. Its state is the JDK's own
 * protected fields ({@code buf}, {@code count}); it buffers up to its size and writes larger arrays
 * through, so the same bytes reach the stream at the same calls as with the JDK's (whose growing
 * buffer, on later releases, flushes at the same points).
 *
 * <p>Public only because loaded code names it; not an API. Thread-safe: writers are excluded from
 * each other by a lock the flow owns.
 */
public class FlowBufferedOutputStream extends BufferedOutputStream {

    private final FlowMonitor guard = new FlowMonitor();
    private boolean closed;

    /** As {@code new BufferedOutputStream(out)}. */
    public FlowBufferedOutputStream(OutputStream out) {
        super(out);
    }

    /** As {@code new BufferedOutputStream(out, size)}. */
    public FlowBufferedOutputStream(OutputStream out, int size) {
        super(out, size);
    }

    private void flushBuffer() throws IOException {
        if (count > 0) {
            out.write(buf, 0, count);
            count = 0;
        }
    }

    @Override
    public void write(int b) throws IOException {
        Object me = guard.take();
        try {
            if (count >= buf.length) {
                flushBuffer();
            }
            buf[count++] = (byte) b;
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Object me = guard.take();
        try {
            if (len >= buf.length) {
                flushBuffer();
                out.write(b, off, len);
                return;
            }
            if (len > buf.length - count) {
                flushBuffer();
            }
            System.arraycopy(b, off, buf, count, len);
            count += len;
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void write(byte[] b) throws IOException {
        if (b == null) {
            super.write(b);
            return;
        }
        write(b, 0, b.length);
    }

    @Override
    public void flush() throws IOException {
        Object me = guard.take();
        try {
            flushBuffer();
            out.flush();
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void close() throws IOException {
        synchronized (guard) {
            if (closed) {
                return;
            }
            closed = true;
        }
        OutputStreams.close(this, out);
    }
}
