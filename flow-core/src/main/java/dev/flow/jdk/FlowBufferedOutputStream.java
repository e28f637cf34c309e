package dev.flow.jdk;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * A {@link BufferedOutputStream} whose writes and flushes suspend a flow where the JDK's would block
 * inside its own frames: the {@code ContinuationClassLoader} creates one wherever loaded code creates
 * a {@code BufferedOutputStream}, and makes in-scope subclasses extend it. Its state is the JDK's own
 * protected fields ({@code buf}, {@code count}); it buffers up to its size and writes larger arrays
 * through, so the same bytes reach the stream at the same calls as with the JDK's (whose growing
 * buffer, on later releases, flushes at the same points). Made without a size and not subclassed, its
 * buffer starts at 512 bytes and grows to 8,192 as writes need it, as the JDK's does on a virtual thread
 * since JDK 21 (one flow per session, like a virtual thread); a subclass, which may use {@code buf}
 * itself, gets the whole buffer at once, as from the JDK.
 *
 * <p>Public only because loaded code names it; not an API. Thread-safe: writers are excluded from
 * each other by a lock the flow owns.
 */
public class FlowBufferedOutputStream extends BufferedOutputStream {

    private static final int DEFAULT_INITIAL_SIZE = 512;
    private static final int DEFAULT_SIZE = 8192;

    private final FlowMonitor guard = new FlowMonitor();
    /** The size {@code buf} grows to, or 0 if it does not grow (a size given, or a subclass). */
    private final int growsTo;
    private boolean closed;

    /** As {@code new BufferedOutputStream(out)}. */
    public FlowBufferedOutputStream(OutputStream out) {
        super(out, 1);
        boolean grows = getClass() == FlowBufferedOutputStream.class;
        this.buf = new byte[grows ? DEFAULT_INITIAL_SIZE : DEFAULT_SIZE];
        this.growsTo = grows ? DEFAULT_SIZE : 0;
    }

    /** As {@code new BufferedOutputStream(out, size)}. */
    public FlowBufferedOutputStream(OutputStream out, int size) {
        super(out, size);
        this.growsTo = 0;
    }

    /** The most bytes the buffer holds: writes of as many or more go through. */
    private int capacity() {
        return growsTo > 0 ? growsTo : buf.length;
    }

    /** Grows the buffer to hold {@code len} more bytes and one, up to {@link #growsTo} (the JDK's growIfNeeded). */
    private void growIfNeeded(int len) {
        int needed = count + len + 1;
        if (needed < 0) {
            needed = Integer.MAX_VALUE;
        }
        if (needed > buf.length && buf.length < growsTo) {
            buf = Arrays.copyOf(buf, Math.min(needed, growsTo));
        }
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
            growIfNeeded(1);
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
            if (len >= capacity()) {
                flushBuffer();
                out.write(b, off, len);
                return;
            }
            growIfNeeded(len);
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
