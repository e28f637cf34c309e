package dev.flow.jdk;

import dev.flow.internal.FlowInputDecorator;
import java.io.IOException;
import java.io.LineNumberReader;
import java.io.Reader;

/**
 * A {@link LineNumberReader} whose reads suspend a flow where the JDK's would block inside its own
 * frames: the {@code ContinuationClassLoader} creates one wherever loaded code creates a {@code
 * LineNumberReader}, and makes in-scope subclasses extend it. It buffers through a {@link
 * FlowBufferedReader} of the same size and counts lines as the JDK's does: {@code \r}, {@code \n} and
 * {@code \r\n} each end a line, {@code read()} returns {@code \n} for all three, and the end of input
 * after characters ends a last line; {@code mark/reset} restore the count.
 *
 * <p>Public only because loaded code names it; not an API. Thread-safe: callers are excluded from each
 * other by a lock the flow owns (its {@code lock}).
 */
public class FlowLineNumberReader extends LineNumberReader implements FlowInputDecorator {

    private static final int NONE = 0;
    private static final int CHAR = 1;
    private static final int EOL = 2;
    private static final int EOF = 3;
    private static final int MAX_SKIP_BUFFER = 8192;

    private final FlowMonitor guard = new FlowMonitor();
    private final FlowBufferedReader buffered;
    private int prevChar = NONE;
    private int lineNumber;
    private int markedLineNumber;
    private boolean skipLF;
    private boolean markedSkipLF;
    private char[] skipBuffer;

    /** As {@code new LineNumberReader(in)}. */
    public FlowLineNumberReader(Reader in) {
        super(in, 1);
        this.lock = guard;
        this.buffered = new FlowBufferedReader(in);
    }

    /** As {@code new LineNumberReader(in, sz)}. */
    public FlowLineNumberReader(Reader in, int sz) {
        super(in, sz <= 0 ? sz : 1);
        this.lock = guard;
        this.buffered = new FlowBufferedReader(in, sz);
    }

    @Override
    public void setLineNumber(int lineNumber) {
        this.lineNumber = lineNumber;
    }

    @Override
    public int getLineNumber() {
        return lineNumber;
    }

    @Override
    public int read() throws IOException {
        Object me = guard.take();
        try {
            int c = buffered.read();
            if (skipLF) {
                if (c == '\n') {
                    c = buffered.read();
                }
                skipLF = false;
            }
            switch (c) {
                case '\r':
                    skipLF = true;
                    lineNumber++;
                    prevChar = EOL;
                    return '\n';
                case '\n':
                    lineNumber++;
                    prevChar = EOL;
                    return '\n';
                case -1:
                    if (prevChar == CHAR) {
                        lineNumber++;
                    }
                    prevChar = EOF;
                    break;
                default:
                    prevChar = CHAR;
                    break;
            }
            return c;
        } finally {
            guard.release(me);
        }
    }

    @Override
    public int read(char[] cbuf, int off, int len) throws IOException {
        Object me = guard.take();
        try {
            int n = buffered.read(cbuf, off, len);
            if (n == -1) {
                if (prevChar == CHAR) {
                    lineNumber++;
                }
                prevChar = EOF;
                return -1;
            }
            for (int i = off; i < off + n; i++) {
                int c = cbuf[i];
                if (skipLF) {
                    skipLF = false;
                    if (c == '\n') {
                        continue;
                    }
                }
                if (c == '\r') {
                    skipLF = true;
                    lineNumber++;
                } else if (c == '\n') {
                    lineNumber++;
                }
            }
            if (n > 0) {
                char last = cbuf[off + n - 1];
                prevChar = last == '\r' || last == '\n' ? EOL : CHAR;
            }
            return n;
        } finally {
            guard.release(me);
        }
    }

    @Override
    public int read(char[] cbuf) throws IOException {
        if (cbuf == null) {
            return super.read(cbuf);
        }
        return read(cbuf, 0, cbuf.length);
    }

    @Override
    public String readLine() throws IOException {
        Object me = guard.take();
        try {
            boolean[] term = new boolean[1];
            String l = buffered.readLine(skipLF, term);
            skipLF = false;
            if (l != null) {
                lineNumber++;
                prevChar = term[0] ? EOL : EOF;
            } else {
                if (prevChar == CHAR) {
                    lineNumber++;
                }
                prevChar = EOF;
            }
            return l;
        } finally {
            guard.release(me);
        }
    }

    @Override
    public long skip(long n) throws IOException {
        if (n < 0) {
            throw new IllegalArgumentException("skip() value is negative");
        }
        int nn = (int) Math.min(n, MAX_SKIP_BUFFER);
        Object me = guard.take();
        try {
            if (skipBuffer == null || skipBuffer.length < nn) {
                skipBuffer = new char[nn];
            }
            long r = n;
            while (r > 0) {
                int nc = read(skipBuffer, 0, (int) Math.min(r, nn));
                if (nc == -1) {
                    break;
                }
                r -= nc;
            }
            if (n - r > 0) {
                prevChar = NONE;
            }
            return n - r;
        } finally {
            guard.release(me);
        }
    }

    @Override
    public boolean ready() throws IOException {
        return buffered.ready();
    }

    @Override
    public boolean markSupported() {
        return buffered.markSupported();
    }

    @Override
    public void mark(int readAheadLimit) throws IOException {
        Object me = guard.take();
        try {
            buffered.mark(skipLF ? readAheadLimit + 1 : readAheadLimit);
            markedLineNumber = lineNumber;
            markedSkipLF = skipLF;
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void reset() throws IOException {
        Object me = guard.take();
        try {
            buffered.reset();
            lineNumber = markedLineNumber;
            skipLF = markedSkipLF;
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void close() throws IOException {
        buffered.close();
    }

    /** What this decorator reads from ({@link FlowInputDecorator}): not an API. */
    @Override
    public Object flowSource() {
        return buffered;
    }
}
