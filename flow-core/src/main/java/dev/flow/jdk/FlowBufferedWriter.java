package dev.flow.jdk;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;

/**
 * A {@link BufferedWriter} whose writes and flushes suspend a flow where the JDK's would block inside
 * its own frames: the {@code ContinuationClassLoader} creates one wherever loaded code creates a {@code
 * BufferedWriter}, and makes in-scope subclasses extend it. It buffers up to its size in chars, writes
 * larger arrays through, and {@code newLine()} writes {@code System.lineSeparator()}, as the JDK's.
 *
 * <p>Public only because loaded code names it; not an API. Thread-safe.
 */
public class FlowBufferedWriter extends BufferedWriter {

    private static final int DEFAULT_SIZE = 8192;

    private final FlowMonitor guard = new FlowMonitor();
    private Writer sink;
    private char[] cb;
    private final int nChars;
    private int nextChar;

    /** As {@code new BufferedWriter(out, sz)}. */
    public FlowBufferedWriter(Writer out, int sz) {
        super(out, sz <= 0 ? sz : 1);
        this.lock = guard;
        this.sink = out;
        this.cb = new char[sz];
        this.nChars = sz;
    }

    /** As {@code new BufferedWriter(out)}. */
    public FlowBufferedWriter(Writer out) {
        this(out, DEFAULT_SIZE);
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
            if (len >= nChars) {
                flushChars();
                sink.write(cbuf, off, len);
                return;
            }
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
