package dev.flow.jdk;

import dev.flow.internal.FlowInputDecorator;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;

/**
 * A {@link BufferedReader} whose reads suspend a flow where the JDK's would block inside its own
 * frames: the {@code ContinuationClassLoader} creates one wherever loaded code creates a {@code
 * BufferedReader}, and makes in-scope subclasses extend it. Buffering, line terminators ({@code \n},
 * {@code \r}, {@code \r\n} across reads), {@code mark/reset}, {@code skip} and {@code ready} behave as
 * in the JDK; callers are excluded from each other as by the JDK's lock, by a lock the flow owns.
 *
 * <p>Public only because loaded code names it; not an API. Thread-safe.
 */
public class FlowBufferedReader extends BufferedReader implements FlowInputDecorator {

    private static final int INVALIDATED = -2;
    private static final int UNMARKED = -1;
    private static final int DEFAULT_SIZE = 8192;
    private static final int EXPECTED_LINE_LENGTH = 80;

    private final FlowMonitor guard = new FlowMonitor();
    private Reader source;
    private char[] cb;
    private int nChars;
    private int nextChar;
    private int markedChar = UNMARKED;
    private int readAheadLimit;
    private boolean skipLF;
    private boolean markedSkipLF;

    /** As {@code new BufferedReader(in, sz)}. */
    public FlowBufferedReader(Reader in, int sz) {
        super(in, sz <= 0 ? sz : 1);
        this.lock = guard;
        this.source = in;
        this.cb = new char[sz];
    }

    /** As {@code new BufferedReader(in)}. */
    public FlowBufferedReader(Reader in) {
        this(in, DEFAULT_SIZE);
    }

    private void ensureOpen() throws IOException {
        if (source == null) {
            throw new IOException("Stream closed");
        }
    }

    private void fill() throws IOException {
        int dst;
        if (markedChar <= UNMARKED) {
            dst = 0;
        } else {
            int delta = nextChar - markedChar;
            if (delta >= readAheadLimit) {
                markedChar = INVALIDATED;
                readAheadLimit = 0;
                dst = 0;
            } else {
                if (readAheadLimit > cb.length) {
                    char[] larger = new char[readAheadLimit];
                    System.arraycopy(cb, markedChar, larger, 0, delta);
                    cb = larger;
                } else {
                    System.arraycopy(cb, markedChar, cb, 0, delta);
                }
                markedChar = 0;
                dst = delta;
                nextChar = delta;
                nChars = delta;
            }
        }
        int n;
        do {
            n = source.read(cb, dst, cb.length - dst);
        } while (n == 0);
        if (n > 0) {
            nChars = dst + n;
            nextChar = dst;
        }
    }

    @Override
    public int read() throws IOException {
        Object me = guard.take();
        try {
            ensureOpen();
            for (;;) {
                if (nextChar >= nChars) {
                    fill();
                    if (nextChar >= nChars) {
                        return -1;
                    }
                }
                if (skipLF) {
                    skipLF = false;
                    if (cb[nextChar] == '\n') {
                        nextChar++;
                        continue;
                    }
                }
                return cb[nextChar++];
            }
        } finally {
            guard.release(me);
        }
    }

    private int read1(char[] cbuf, int off, int len) throws IOException {
        if (nextChar >= nChars) {
            if (len >= cb.length && markedChar <= UNMARKED && !skipLF) {
                return source.read(cbuf, off, len);
            }
            fill();
        }
        if (nextChar >= nChars) {
            return -1;
        }
        if (skipLF) {
            skipLF = false;
            if (cb[nextChar] == '\n') {
                nextChar++;
                if (nextChar >= nChars) {
                    fill();
                }
                if (nextChar >= nChars) {
                    return -1;
                }
            }
        }
        int n = Math.min(len, nChars - nextChar);
        System.arraycopy(cb, nextChar, cbuf, off, n);
        nextChar += n;
        return n;
    }

    @Override
    public int read(char[] cbuf, int off, int len) throws IOException {
        Object me = guard.take();
        try {
            ensureOpen();
            if (cbuf == null || JdkChecks.outOfBounds(off, len, cbuf.length)) {
                throw JdkChecks.bufferedReaderRead(cbuf, off, len);
            }
            if (len == 0) {
                return 0;
            }
            int n = read1(cbuf, off, len);
            if (n <= 0) {
                return n;
            }
            while (n < len && source.ready()) {
                int more = read1(cbuf, off + n, len - n);
                if (more <= 0) {
                    break;
                }
                n += more;
            }
            return n;
        } finally {
            guard.release(me);
        }
    }

    @Override
    public int read(char[] cbuf) throws IOException {
        return read(cbuf, 0, cbuf.length);
    }

    /**
     * Reads a line: {@code ignoreLF} drops a leading {@code \n} (the end of a {@code \r\n} seen by a
     * caller); {@code term}, if given, tells whether a terminator ended the line.
     */
    String readLine(boolean ignoreLF, boolean[] term) throws IOException {
        Object me = guard.take();
        try {
            ensureOpen();
            StringBuilder s = null;
            boolean omitLF = ignoreLF || skipLF;
            if (term != null) {
                term[0] = false;
            }
            for (;;) {
                if (nextChar >= nChars) {
                    fill();
                }
                if (nextChar >= nChars) {
                    return s != null && s.length() > 0 ? s.toString() : null;
                }
                if (omitLF && cb[nextChar] == '\n') {
                    nextChar++;
                }
                skipLF = false;
                omitLF = false;
                int i = nextChar;
                char c = 0;
                while (i < nChars) {
                    c = cb[i];
                    if (c == '\n' || c == '\r') {
                        break;
                    }
                    i++;
                }
                int start = nextChar;
                nextChar = i;
                if (i < nChars) {
                    if (term != null) {
                        term[0] = true;
                    }
                    String line;
                    if (s == null) {
                        line = new String(cb, start, i - start);
                    } else {
                        s.append(cb, start, i - start);
                        line = s.toString();
                    }
                    nextChar++;
                    if (c == '\r') {
                        skipLF = true;
                    }
                    return line;
                }
                if (s == null) {
                    s = new StringBuilder(EXPECTED_LINE_LENGTH);
                }
                s.append(cb, start, i - start);
            }
        } finally {
            guard.release(me);
        }
    }

    @Override
    public String readLine() throws IOException {
        return readLine(false, null);
    }

    @Override
    public long skip(long n) throws IOException {
        if (n < 0L) {
            throw new IllegalArgumentException("skip value is negative");
        }
        Object me = guard.take();
        try {
            ensureOpen();
            long r = n;
            while (r > 0) {
                if (nextChar >= nChars) {
                    fill();
                }
                if (nextChar >= nChars) {
                    break;
                }
                if (skipLF) {
                    skipLF = false;
                    if (cb[nextChar] == '\n') {
                        nextChar++;
                    }
                }
                long d = nChars - nextChar;
                if (r <= d) {
                    nextChar += (int) r;
                    r = 0;
                    break;
                }
                r -= d;
                nextChar = nChars;
            }
            return n - r;
        } finally {
            guard.release(me);
        }
    }

    @Override
    public boolean ready() throws IOException {
        Object me = guard.take();
        try {
            ensureOpen();
            if (skipLF) {
                if (nextChar >= nChars && source.ready()) {
                    fill();
                }
                if (nextChar < nChars) {
                    if (cb[nextChar] == '\n') {
                        nextChar++;
                    }
                    skipLF = false;
                }
            }
            return nextChar < nChars || source.ready();
        } finally {
            guard.release(me);
        }
    }

    @Override
    public boolean markSupported() {
        return true;
    }

    @Override
    public void mark(int readAheadLimit) throws IOException {
        if (readAheadLimit < 0) {
            throw new IllegalArgumentException("Read-ahead limit < 0");
        }
        Object me = guard.take();
        try {
            ensureOpen();
            this.readAheadLimit = readAheadLimit;
            markedChar = nextChar;
            markedSkipLF = skipLF;
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void reset() throws IOException {
        Object me = guard.take();
        try {
            ensureOpen();
            if (markedChar < 0) {
                throw new IOException(markedChar == INVALIDATED ? "Mark invalid" : "Stream not marked");
            }
            nextChar = markedChar;
            skipLF = markedSkipLF;
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void close() throws IOException {
        Object me = guard.take();
        try {
            if (source == null) {
                return;
            }
            try {
                source.close();
            } finally {
                source = null;
                cb = null;
            }
        } finally {
            guard.release(me);
        }
    }

    /** What this decorator reads from ({@link FlowInputDecorator}): not an API. */
    @Override
    public Object flowSource() {
        return source;
    }
}
