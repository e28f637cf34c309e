package dev.flow.internal;

import dev.flow.Line;
import dev.flow.LineEnding;
import dev.flow.LineTerminator;
import dev.flow.LineTooLongException;
import dev.flow.spi.ByteScanner;
import java.util.Objects;

/**
 * Finds one line in a transport's input for {@code readLineBytes}: consumes nothing until the line is
 * complete (or the stream ended), then the line and its terminator. Each byte is examined once,
 * however often the input is offered. One per read; not thread-safe.
 */
public final class LineScanner implements ByteScanner {

    private final boolean crlfOnly;
    private final int maxBytes;
    /** Bytes examined without finding the terminator; valid because nothing is consumed before the line ends. */
    private int scanned;
    private Line line;

    /**
     * A scanner for one line ended by {@code terminator}, of at most {@code maxBytes} bytes.
     *
     * @throws IllegalArgumentException if {@code maxBytes <= 0}
     */
    public LineScanner(LineTerminator terminator, int maxBytes) {
        Objects.requireNonNull(terminator, "terminator");
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes: " + maxBytes + " (expected: > 0)");
        }
        this.crlfOnly = terminator == LineTerminator.CRLF;
        this.maxBytes = maxBytes;
    }

    /** The line found, or {@code null} if none yet. */
    public Line line() {
        return line;
    }

    @Override
    public int scan(byte[] buf, int off, int len, boolean endOfStream) throws LineTooLongException {
        if (line != null) {
            return 0;
        }
        for (int i = scanned; i < len; i++) {
            if (buf[off + i] == '\n') {
                boolean cr = i > 0 && buf[off + i - 1] == '\r';
                if (crlfOnly && !cr) {
                    continue;
                }
                int content = cr ? i - 1 : i;
                check(content);
                line = new Line(buf, off, content, cr ? LineEnding.CRLF : LineEnding.LF);
                return i + 1;
            }
        }
        scanned = len;
        if (len == 0) {
            return 0;
        }
        boolean trailingCr = buf[off + len - 1] == '\r';
        if (endOfStream) {
            int content = !crlfOnly && trailingCr ? len - 1 : len;
            check(content);
            line = new Line(buf, off, content, LineEnding.END_OF_STREAM);
            return len;
        }
        // A trailing '\r' may be the first half of "\r\n": it does not count as content yet.
        check(trailingCr ? len - 1 : len);
        return 0;
    }

    private void check(long content) throws LineTooLongException {
        if (content > maxBytes) {
            throw new LineTooLongException(content, maxBytes);
        }
    }
}
