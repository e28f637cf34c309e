package dev.flow.jdk;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.util.Arrays;

/**
 * A {@link BufferedWriter} whose writes and flushes suspend a flow where the JDK's would block inside
 * its own frames: the {@code ContinuationClassLoader} creates one wherever loaded code creates a {@code
 * BufferedWriter}, and makes in-scope subclasses extend it. It buffers up to its size in chars, writes
 * larger arrays through, and {@code newLine()} writes {@code System.lineSeparator()}, as the JDK's. Made
 * without a size, its buffer starts at 512 chars and grows to 8,192 as writes need it, as the JDK's does
 * on a virtual thread since JDK 21 (one flow per session, like a virtual thread); growing before the
 * buffer is full, it writes to the underlying writer at the same calls as a buffer of 8,192 from the
 * start.
 *
 * <p>Public only because loaded code names it; not an API. Thread-safe.
 */
public class FlowBufferedWriter extends BufferedWriter {

    private static final int DEFAULT_INITIAL_SIZE = 512;
    private static final int DEFAULT_SIZE = 8192;

    private final FlowMonitor guard = new FlowMonitor();
    private Writer sink;
    private char[] cb;
    /** The buffer's current size. */
    private int nChars;
    /** The size it grows to. */
    private final int maxChars;
    private int nextChar;

    /** As {@code new BufferedWriter(out, sz)}. */
    public FlowBufferedWriter(Writer out, int sz) {
        this(out, sz, sz);
    }

    /** As {@code new BufferedWriter(out)}. */
    public FlowBufferedWriter(Writer out) {
        this(out, DEFAULT_INITIAL_SIZE, DEFAULT_SIZE);
    }

    private FlowBufferedWriter(Writer out, int initial, int max) {
        super(out, initial <= 0 ? initial : 1);
        this.lock = guard;
        this.sink = out;
        this.cb = new char[initial];
        this.nChars = initial;
        this.maxChars = max;
    }

    /** Grows the buffer to hold {@code len} more chars and one, up to its maximum (the JDK's {@code growIfNeeded}). */
    private void growIfNeeded(int len) {
        int needed = nextChar + len + 1;
        if (needed < 0) {
            needed = Integer.MAX_VALUE;
        }
        if (needed > nChars && nChars < maxChars) {
            nChars = Math.min(needed, maxChars);
            cb = Arrays.copyOf(cb, nChars);
        }
    }

    private void ensureOpen() throws IOException {
        if (sink == null) {
            throw new IOException("Stream closed");
        }
    }

    private void flushChars() throws IOException {
        ensureOpen();
        if (nextChar == 0) {
            return;
        }
        sink.write(cb, 0, nextChar);
        nextChar = 0;
    }

    @Override
    public void write(int c) throws IOException {
        Object me = guard.take();
        try {
            ensureOpen();
            growIfNeeded(1);
            if (nextChar >= nChars) {
                flushChars();
            }
            cb[nextChar++] = (char) c;
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void write(char[] cbuf, int off, int len) throws IOException {
        Object me = guard.take();
        try {
            ensureOpen();
            if (cbuf == null || JdkChecks.outOfBounds(off, len, cbuf.length)) {
                throw JdkChecks.bufferedWriterWrite(cbuf, off, len);
            }
            if (len == 0) {
                return;
            }
            if (len >= maxChars) {
                flushChars();
                sink.write(cbuf, off, len);
                return;
            }
            growIfNeeded(len);
            int b = off;
            int t = off + len;
            while (b < t) {
                int d = Math.min(nChars - nextChar, t - b);
                System.arraycopy(cbuf, b, cb, nextChar, d);
                b += d;
                nextChar += d;
                if (nextChar >= nChars) {
                    flushChars();
                }
            }
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void write(String s, int off, int len) throws IOException {
        Object me = guard.take();
        try {
            ensureOpen();
            growIfNeeded(len);
            int b = off;
            int t = off + len;
            while (b < t) {
                int d = Math.min(nChars - nextChar, t - b);
                s.getChars(b, b + d, cb, nextChar);
                b += d;
                nextChar += d;
                if (nextChar >= nChars) {
                    flushChars();
                }
            }
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void write(char[] cbuf) throws IOException {
        write(cbuf, 0, cbuf.length);
    }

    @Override
    public void write(String str) throws IOException {
        write(str, 0, str.length());
    }

    @Override
    public Writer append(CharSequence csq) throws IOException {
        write(String.valueOf(csq));
        return this;
    }

    @Override
    public Writer append(CharSequence csq, int start, int end) throws IOException {
        CharSequence s = csq == null ? "null" : csq;
        return append(s.subSequence(start, end));
    }

    @Override
    public Writer append(char c) throws IOException {
        write(c);
        return this;
    }

    @Override
    public void newLine() throws IOException {
        write(System.lineSeparator());
    }

    /** Writes the buffered chars to the underlying writer without flushing it (the JDK's {@code flushBuffer}). */
    void flushBuffer() throws IOException {
        Object me = guard.take();
        try {
            flushChars();
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void flush() throws IOException {
        Object me = guard.take();
        try {
            flushChars();
            sink.flush();
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void close() throws IOException {
        Object me = guard.take();
        try {
            if (sink == null) {
                return;
            }
            try (Writer w = sink) {
                flushChars();
            } finally {
                sink = null;
                cb = null;
            }
        } finally {
            guard.release(me);
        }
    }
}
