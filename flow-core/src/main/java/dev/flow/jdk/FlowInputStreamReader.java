package dev.flow.jdk;

import dev.flow.internal.FlowInputDecorator;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UnsupportedEncodingException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;

/**
 * An {@link InputStreamReader} whose reads suspend a flow where the JDK's would block inside its own
 * frames: the {@code ContinuationClassLoader} creates one wherever loaded code creates an {@code
 * InputStreamReader}, and makes in-scope subclasses extend it. Decoding is the JDK's: the same
 * {@link CharsetDecoder} as the JDK's reader (malformed and unmappable input replaced, or the given
 * decoder's own actions), fed the same way (a surrogate pair split across {@code read()} calls, end of
 * input flushing an incomplete sequence as replacement characters, a byte-order mark handled by the
 * charset). The constructors are the JDK's, so they refuse the same arguments with the same exceptions.
 *
 * <p>Public only because loaded code names it; not an API. Thread-safe.
 */
public class FlowInputStreamReader extends InputStreamReader implements FlowInputDecorator {

    private static final int BYTES = 8192;
    /**
     * Whether the running JDK's reader resets its decoder when the stream ends with undecoded bytes
     * left, before decoding them (JDK 17 does, and so forgets a byte-order mark; later releases do not).
     */
    private static final boolean RESETS_AT_END = probeResetAtEnd();

    private final FlowMonitor guard = new FlowMonitor();
    private final InputStream source;
    private final CharsetDecoder decoder;
    /** Undecoded bytes, in read mode. */
    private final ByteBuffer bb = ByteBuffer.allocate(BYTES).flip();
    private boolean haveLeftoverChar;
    private char leftoverChar;
    private boolean closed;

    /** As {@code new InputStreamReader(in)}. */
    public FlowInputStreamReader(InputStream in) {
        super(in);
        this.lock = guard;
        this.source = in;
        this.decoder = replacing(Charset.defaultCharset());
    }

    /** As {@code new InputStreamReader(in, charsetName)}. */
    public FlowInputStreamReader(InputStream in, String charsetName) throws UnsupportedEncodingException {
        super(in, charsetName);
        this.lock = guard;
        this.source = in;
        this.decoder = replacing(Charset.forName(charsetName));
    }

    /** As {@code new InputStreamReader(in, cs)}. */
    public FlowInputStreamReader(InputStream in, Charset cs) {
        super(in, cs);
        this.lock = guard;
        this.source = in;
        this.decoder = replacing(cs);
    }

    /** As {@code new InputStreamReader(in, dec)}: {@code dec}'s error actions are kept. */
    public FlowInputStreamReader(InputStream in, CharsetDecoder dec) {
        super(in, dec);
        this.lock = guard;
        this.source = in;
        this.decoder = dec;
    }

    /**
     * Asks the JDK's own reader: little-endian UTF-16 (by its byte-order mark) ending in half a
     * surrogate pair, one byte per read. A reset decoder reads those last two bytes big-endian.
     */
    private static boolean probeResetAtEnd() {
        byte[] input = {(byte) 0xFF, (byte) 0xFE, 0x3D, (byte) 0xD8};
        InputStream oneByOne = new InputStream() {
            private int next;

            @Override
            public int read() {
                return next < input.length ? input[next++] & 0xff : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (len == 0) {
                    return 0;
                }
                int c = read();
                if (c < 0) {
                    return -1;
                }
                b[off] = (byte) c;
                return 1;
            }
        };
        try {
            return new InputStreamReader(oneByOne, java.nio.charset.StandardCharsets.UTF_16).read() == 0x3DD8;
        } catch (IOException e) {
            return false;
        }
    }

    private static CharsetDecoder replacing(Charset cs) {
        return cs.newDecoder().onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
    }

    @Override
    public String getEncoding() {
        return closed ? null : super.getEncoding();
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("Stream closed");
        }
    }

    @Override
    public int read() throws IOException {
        Object me = guard.take();
        try {
            return read0();
        } finally {
            guard.release(me);
        }
    }

    private int read0() throws IOException {
        if (haveLeftoverChar) {
            haveLeftoverChar = false;
            return leftoverChar;
        }
        char[] two = new char[2];
        int n = read1(two, 0, 2);
        if (n < 0) {
            return -1;
        }
        if (n == 2) {
            leftoverChar = two[1];
            haveLeftoverChar = true;
        }
        return two[0];
    }

    @Override
    public int read(char[] cbuf, int off, int len) throws IOException {
        Object me = guard.take();
        try {
            return read1(cbuf, off, len);
        } finally {
            guard.release(me);
        }
    }

    private int read1(char[] cbuf, int offset, int length) throws IOException {
        int off = offset;
        int len = length;
        ensureOpen();
        if (cbuf == null || JdkChecks.outOfBounds(off, len, cbuf.length)) {
            throw JdkChecks.inputStreamReaderRead(cbuf, off, len);
        }
        if (len == 0) {
            return 0;
        }
        int n = 0;
        if (haveLeftoverChar) {
            cbuf[off] = leftoverChar;
            off++;
            len--;
            haveLeftoverChar = false;
            n = 1;
            if (len == 0 || !implReady()) {
                return n;
            }
        }
        if (len == 1) {
            int c = read0();
            if (c == -1) {
                return n == 0 ? -1 : n;
            }
            cbuf[off] = (char) c;
            return n + 1;
        }
        int nr = decode(cbuf, off, off + len);
        return nr < 0 ? (n == 1 ? 1 : nr) : n + nr;
    }

    @Override
    public int read(char[] cbuf) throws IOException {
        return read(cbuf, 0, cbuf.length);
    }

    /**
     * As {@code Reader.read(CharBuffer)}, through this reader's {@link #read(char[], int, int)}: the JDK's
     * {@code InputStreamReader} overrides it with a read through its own decoder over the stream, which this
     * reader does not use (the characters this reader buffered would be skipped, the stream read inside JDK
     * frames). {@code Scanner} reads its {@code Readable} this way.
     */
    @Override
    public int read(CharBuffer target) throws IOException {
        int n;
        if (target.hasArray()) {
            char[] cbuf = target.array();
            int pos = target.position();
            int rem = Math.max(target.limit() - pos, 0);
            n = read(cbuf, target.arrayOffset() + pos, rem);
            if (n > 0) {
                target.position(pos + n);
            }
        } else {
            int len = target.remaining();
            char[] cbuf = new char[len];
            n = read(cbuf, 0, len);
            if (n > 0) {
                target.put(cbuf, 0, n);
            }
        }
        return n;
    }

    /** Decodes into {@code cbuf[off..end)}, at least two chars of room; reads bytes at most once after the first char. */
    private int decode(char[] cbuf, int off, int end) throws IOException {
        CharBuffer cb = CharBuffer.wrap(cbuf, off, end - off).slice();
        boolean eof = false;
        for (;;) {
            CoderResult cr = decoder.decode(bb, cb, eof);
            if (cr.isUnderflow()) {
                if (eof || !cb.hasRemaining() || cb.position() > 0 && !inReady()) {
                    break;
                }
                if (readBytes() < 0) {
                    eof = true;
                    if (cb.position() == 0 && !bb.hasRemaining()) {
                        break;
                    }
                    if (RESETS_AT_END) {
                        decoder.reset();
                    }
                }
                continue;
            }
            if (cr.isOverflow()) {
                break;
            }
            cr.throwException();
        }
        if (eof) {
            decoder.reset();
        }
        return cb.position() == 0 ? -1 : cb.position();
    }

    private int readBytes() throws IOException {
        bb.compact();
        try {
            int pos = bb.position();
            int rem = Math.max(bb.limit() - pos, 0);
            int n = source.read(bb.array(), bb.arrayOffset() + pos, rem);
            if (n < 0) {
                return n;
            }
            if (n == 0) {
                throw new IOException("Underlying input stream returned zero bytes");
            }
            bb.position(pos + n);
        } finally {
            bb.flip();
        }
        return bb.remaining();
    }

    private boolean inReady() {
        try {
            return source != null && source.available() > 0;
        } catch (IOException e) {
            return false;
        }
    }

    private boolean implReady() {
        return bb.hasRemaining() || inReady();
    }

    @Override
    public boolean ready() throws IOException {
        Object me = guard.take();
        try {
            ensureOpen();
            return haveLeftoverChar || implReady();
        } finally {
            guard.release(me);
        }
    }

    @Override
    public long skip(long n) throws IOException {
        if (n < 0L) {
            throw new IllegalArgumentException("skip value is negative");
        }
        int chunk = (int) Math.min(n, BYTES);
        Object me = guard.take();
        try {
            char[] skipped = new char[chunk];
            long r = n;
            while (r > 0) {
                int nc = read1(skipped, 0, (int) Math.min(r, chunk));
                if (nc == -1) {
                    break;
                }
                r -= nc;
            }
            return n - r;
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void close() throws IOException {
        Object me = guard.take();
        try {
            if (closed) {
                return;
            }
            try {
                source.close();
            } finally {
                closed = true;
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
