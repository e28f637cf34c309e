package dev.flow.spi;

import dev.flow.LineTerminator;
import dev.flow.LineTooLongException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.MalformedInputException;
import java.util.Objects;

/**
 * The input side of a transport: received bytes, split into lines or read as bytes, for transport
 * implementations. Lines are found by scanning each byte once; while a line is incomplete its
 * length in characters is counted incrementally (each byte is decoded once, however often the
 * buffer is polled), so a limit check costs work proportional to the bytes received. The array
 * grows for long input and shrinks back once it has been consumed.
 *
 * <p>A line longer than the limit makes the buffer fail: it is emptied, later input is dropped and
 * every later read throws {@link LineTooLongException} again (the rest of that line could not be
 * told from the next one). The charset must be ASCII-compatible ({@code \r} and {@code \n} single
 * bytes).
 *
 * <p>Not thread-safe: the owner guards it with its own lock.
 */
public final class InputBuffer {

    private static final int INITIAL_CAPACITY = 512;
    /** Largest array kept once the data that made it grow has been consumed. */
    static final int KEEP_CAPACITY = 8 * 1024;
    /** The shared empty array: none is allocated until the first byte arrives. */
    private static final byte[] EMPTY = new byte[0];

    private final Charset charset;
    private final boolean strictDecoding;
    private final Object source;

    private byte[] buf = EMPTY;
    private int start;
    private int end;
    /** Where the search for the next line end resumes; start <= scan <= end. */
    private int scan;
    /** The terminator {@link #scan} was advanced for. */
    private LineTerminator scannedFor = LineTerminator.LF_OR_CRLF;
    /** Bytes after {@link #start} already counted into {@link #chars}. */
    private int counted;
    private long chars;
    private CharsetDecoder counter;
    private CharBuffer sink;
    private long decodedBytes;
    private LineTooLongException tooLong;

    /**
     * Creates an empty buffer.
     *
     * @param charset the charset lines are decoded with; ASCII-compatible
     * @param strictDecoding whether malformed input fails ({@link MalformedInputException}) instead
     *        of decoding to U+FFFD
     * @param source names the connection in error messages (its {@code toString()})
     */
    public InputBuffer(Charset charset, boolean strictDecoding, Object source) {
        this.charset = Objects.requireNonNull(charset, "charset");
        this.strictDecoding = strictDecoding;
        this.source = source;
    }

    /** The number of unread bytes. */
    public int size() {
        return end - start;
    }

    /** The length of the backing array; for tests and memory accounting. */
    public int capacity() {
        return buf.length;
    }

    /** Whether a line was too long; input is then dropped. */
    public boolean failed() {
        return tooLong != null;
    }

    /** Appends {@code len} bytes of {@code src}; dropped after a line was too long. */
    public void append(byte[] src, int off, int len) {
        Objects.checkFromIndexSize(off, len, src.length);
        if (tooLong == null) {
            ensureCapacity(len);
            System.arraycopy(src, off, buf, end, len);
            end += len;
        }
    }

    /** Appends the remaining bytes of {@code src}, consuming them. */
    public void append(ByteBuffer src) {
        int n = src.remaining();
        if (tooLong == null) {
            ensureCapacity(n);
            src.get(buf, end, n);
            end += n;
        } else {
            src.position(src.limit());
        }
    }

    /**
     * Returns the next line if a complete one is buffered (or, at end of stream, the unterminated
     * rest), else {@code null}.
     *
     * @param endOfStream whether no more input will arrive
     * @throws LineTooLongException if the line, complete or not, exceeds {@code maxLength} characters
     * @throws MalformedInputException with strict decoding, if the line is not valid in the charset
     */
    public String pollLine(LineTerminator terminator, int maxLength, boolean endOfStream)
            throws LineTooLongException, MalformedInputException {
        checkNotFailed();
        if (maxLength <= 0) {
            throw new IllegalArgumentException("maxLength: " + maxLength + " (expected: > 0)");
        }
        int nl = indexOfTerminator(Objects.requireNonNull(terminator, "terminator"));
        int contentEnd;
        int next;
        if (nl >= 0) {
            contentEnd = nl > start && buf[nl - 1] == '\r' ? nl - 1 : nl;
            next = nl + 1;
        } else if (endOfStream) {
            if (end == start) {
                return null;
            }
            contentEnd = terminator == LineTerminator.LF_OR_CRLF && buf[end - 1] == '\r' ? end - 1 : end;
            next = end;
        } else if (end == start) {
            return null;
        } else {
            int content = end - start - (buf[end - 1] == '\r' ? 1 : 0);
            if (content > maxLength) {
                long c = countChars(content);
                if (c > maxLength) {
                    throw fail(c, maxLength);
                }
            }
            return null;
        }
        String line = decode(start, contentEnd - start);
        if (line.length() > maxLength) {
            throw fail(line.length(), maxLength);
        }
        consume(next);
        return line;
    }

    /**
     * Offers the unread bytes to {@code scanner} and consumes the ones it accepts. The scanner is not
     * called when nothing is buffered and more may come.
     *
     * @param endOfStream whether no more input will arrive
     * @return the number of bytes consumed
     * @throws LineTooLongException if a line was too long before, or the scanner throws it (the buffer
     *     then fails, as for a text line over the limit)
     * @throws java.io.IOException if the scanner fails the read
     */
    public int scan(ByteScanner scanner, boolean endOfStream) throws java.io.IOException {
        checkNotFailed();
        int size = end - start;
        if (size == 0 && !endOfStream) {
            return 0;
        }
        int n;
        try {
            n = scanner.scan(buf, start, size, endOfStream);
        } catch (LineTooLongException e) {
            tooLong = e;
            clear();
            throw e;
        }
        if (n < 0 || n > size) {
            throw new IllegalStateException("scanner consumed " + n + " bytes (expected: 0 to " + size + ")");
        }
        if (n > 0) {
            consume(start + n);
        }
        return n;
    }

    /** Copies up to {@code len} unread bytes; returns how many (0 if none). */
    public int read(byte[] dst, int off, int len) throws LineTooLongException {
        Objects.checkFromIndexSize(off, len, dst.length);
        checkNotFailed();
        int n = Math.min(len, end - start);
        if (n > 0) {
            System.arraycopy(buf, start, dst, off, n);
            consume(start + n);
        }
        return n;
    }

    /** Discards up to {@code n} unread bytes; returns how many. */
    public long skip(long n) throws LineTooLongException {
        checkNotFailed();
        int k = (int) Math.min(Math.max(n, 0), end - start);
        if (k > 0) {
            consume(start + k);
        }
        return k;
    }

    /** Discards everything and releases the array (after a close). */
    public void clear() {
        start = end = scan = 0;
        buf = EMPTY;
        resetCount();
    }

    /** Bytes fed to the length-counting decoder so far; for tests that prove the work is linear. */
    public long decodedBytes() {
        return decodedBytes;
    }

    private void checkNotFailed() throws LineTooLongException {
        if (tooLong != null) {
            throw new LineTooLongException(tooLong.length(), tooLong.limit(), tooLong.limitName());
        }
    }

    private LineTooLongException fail(long length, int limit) {
        tooLong = new LineTooLongException(length, limit);
        clear();
        return tooLong;
    }

    private int indexOfTerminator(LineTerminator terminator) {
        if (terminator != scannedFor) {
            scannedFor = terminator;
            scan = start;
        }
        byte[] b = buf;
        boolean crlf = terminator == LineTerminator.CRLF;
        for (int i = scan, e = end; i < e; i++) {
            if (b[i] == '\n' && (!crlf || (i > start && b[i - 1] == '\r'))) {
                scan = i;
                return i;
            }
        }
        scan = end;
        return -1;
    }

    private String decode(int from, int len) throws MalformedInputException {
        if (!strictDecoding) {
            return new String(buf, from, len, charset);
        }
        try {
            return charset.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(buf, from, len)).toString();
        } catch (CharacterCodingException e) {
            int bad = e instanceof MalformedInputException ? ((MalformedInputException) e).getInputLength() : 1;
            throw new Malformed(bad, "malformed input from " + source + ": a line of " + len
                    + " bytes is not valid " + charset.name() + " (strictDecoding)");
        }
    }

    /** Characters in the first {@code len} unread bytes, decoding only bytes not counted before. */
    private long countChars(int len) {
        if (counter == null) {
            counter = charset.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE);
            sink = CharBuffer.allocate(1024);
        }
        if (len <= counted) {
            return chars;
        }
        ByteBuffer in = ByteBuffer.wrap(buf, start + counted, len - counted);
        int before = in.position();
        for (;;) {
            sink.clear();
            CoderResult r = counter.decode(in, sink, false);
            chars += sink.position();
            if (!r.isOverflow()) {
                break;
            }
        }
        decodedBytes += in.position() - before;
        counted += in.position() - before;
        return chars;
    }

    private void resetCount() {
        counted = 0;
        chars = 0;
        if (counter != null) {
            counter.reset();
        }
    }

    private void consume(int newStart) {
        start = newStart;
        resetCount();
        int size = end - start;
        if (size == 0) {
            start = end = scan = 0;
            if (buf.length > KEEP_CAPACITY) {
                buf = new byte[INITIAL_CAPACITY];
            }
            return;
        }
        if (scan < start) {
            scan = start;
        }
        if (buf.length > KEEP_CAPACITY && size <= buf.length / 4) {
            byte[] nb = new byte[Math.max(INITIAL_CAPACITY, Integer.highestOneBit(size) << 1)];
            System.arraycopy(buf, start, nb, 0, size);
            scan -= start;
            start = 0;
            end = size;
            buf = nb;
        }
    }

    private void ensureCapacity(int n) {
        if (end + n <= buf.length) {
            return;
        }
        int size = end - start;
        if (size + n <= buf.length && buf.length > 0) {
            System.arraycopy(buf, start, buf, 0, size);
        } else {
            long want = Math.max((long) buf.length * 2, (long) size + n);
            byte[] nb = new byte[(int) Math.min(Integer.MAX_VALUE - 16, Math.max(want, INITIAL_CAPACITY))];
            System.arraycopy(buf, start, nb, 0, size);
            buf = nb;
        }
        scan -= start;
        end = size;
        start = 0;
    }

    @Override
    public String toString() {
        return "InputBuffer[" + size() + " of " + buf.length + " bytes]";
    }

    /** A malformed line, naming the connection. */
    private static final class Malformed extends MalformedInputException {
        private static final long serialVersionUID = 1L;
        private final String message;

        Malformed(int inputLength, String message) {
            super(inputLength);
            this.message = message;
        }

        @Override
        public String getMessage() {
            return message;
        }
    }
}
