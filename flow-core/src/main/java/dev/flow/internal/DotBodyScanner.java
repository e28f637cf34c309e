package dev.flow.internal;

import dev.flow.spi.ByteScanner;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Decodes a dot-terminated body (RFC 5321 section 4.5.2) for {@code readDotBody}: a state machine over
 * the input that removes the leading "." of each line starting with one, ends at {@code
 * "\r\n.\r\n"} (the body starts at a line start) and consumes nothing past it. Decoded bytes collect
 * in a chunk that the reader writes to its sink between scans; bytes past the limit are counted, not
 * kept. One per read; not thread-safe.
 */
public final class DotBodyScanner implements ByteScanner {

    private static final int LINE_START = 0;
    private static final int DOT = 1;
    private static final int DOT_CR = 2;
    private static final int IN_LINE = 3;
    private static final int CR = 4;

    private final long maxBytes;
    private final byte[] chunk = new byte[8192];
    private int chunkLength;
    private int state = LINE_START;
    private long size;
    private boolean done;

    /**
     * A scanner for one body of at most {@code maxBytes} bytes after unstuffing.
     *
     * @throws IllegalArgumentException if {@code maxBytes < 0}
     */
    public DotBodyScanner(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes: " + maxBytes + " (expected: >= 0)");
        }
        this.maxBytes = maxBytes;
    }

    /** Whether the final {@code "."} line has been consumed. */
    public boolean done() {
        return done;
    }

    /** Whether the body is longer than the limit. */
    public boolean exceeded() {
        return size > maxBytes;
    }

    /** The body's size so far, in bytes after unstuffing (past the limit too). */
    public long size() {
        return size;
    }

    /** The limit, in bytes after unstuffing. */
    public long limit() {
        return maxBytes;
    }

    /** Writes the decoded bytes collected since the last call to {@code sink} and empties the chunk. */
    public void drainTo(OutputStream sink) throws IOException {
        if (chunkLength > 0) {
            int n = chunkLength;
            chunkLength = 0;
            sink.write(chunk, 0, n);
        }
    }

    @Override
    public int scan(byte[] buf, int off, int len, boolean endOfStream) {
        int i = 0;
        // Room for two bytes: ".\r" not followed by "\n" emits both.
        while (i < len && !done && chunkLength <= chunk.length - 2) {
            step(buf[off + i]);
            i++;
        }
        return i;
    }

    private void step(byte b) {
        switch (state) {
            case LINE_START:
                if (b == '.') {
                    state = DOT;
                } else {
                    data(b);
                }
                break;
            case DOT:
                if (b == '\r') {
                    state = DOT_CR;
                } else {
                    // Other characters follow the leading ".": it was stuffed, drop it.
                    data(b);
                }
                break;
            case DOT_CR:
                if (b == '\n') {
                    done = true;
                } else {
                    // ".\r" then more: the dot was stuffed, the '\r' is data.
                    emit((byte) '\r');
                    state = CR;
                    data(b);
                }
                break;
            default:
                data(b);
        }
    }

    /** Emits a data byte and moves to the state after it (from IN_LINE or CR semantics). */
    private void data(byte b) {
        emit(b);
        if (b == '\r') {
            state = CR;
        } else if (b == '\n' && state == CR) {
            state = LINE_START;
        } else {
            state = IN_LINE;
        }
    }

    private void emit(byte b) {
        size++;
        if (size <= maxBytes) {
            chunk[chunkLength++] = b;
        }
    }
}
