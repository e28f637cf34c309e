package dev.flow.jdk;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UnsupportedEncodingException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;

/**
 * An {@link OutputStreamWriter} whose writes and flushes suspend a flow where the JDK's would block
 * inside its own frames: the {@code ContinuationClassLoader} creates one wherever loaded code creates
 * an {@code OutputStreamWriter}, and makes in-scope subclasses extend it. Encoding is the JDK's: the
 * same {@link CharsetEncoder} as the JDK's writer (malformed and unmappable input replaced, or the
 * given encoder's own actions), a surrogate pair split across writes kept until its second half, up
 * to 8 KiB of bytes buffered until {@code flush()} or {@code close()}. The constructors are the JDK's.
 *
 * <p>Public only because loaded code names it; not an API. Thread-safe.
 */
public class FlowOutputStreamWriter extends OutputStreamWriter {

    private static final int BYTES = 8192;
    /**
     * Whether the running JDK's writer starts with a small byte buffer and grows it for larger writes
     * (later releases: 512 bytes up to 8 KiB) rather than buffering 8 KiB from the start (JDK 17): the
     * bytes that reach the stream before a flush differ.
     */
    private static final boolean GROWS = probeGrowth();
    private static final int INITIAL_BYTES = 512;

    private final FlowMonitor guard = new FlowMonitor();
    private final OutputStream sink;
    private final CharsetEncoder encoder;
    /** Encoded bytes, in write mode. */
    private ByteBuffer bb = ByteBuffer.allocate(GROWS ? INITIAL_BYTES : BYTES);
    private boolean haveLeftoverChar;
    private char leftoverChar;
    private CharBuffer lcb;
    private boolean closed;

    /** As {@code new OutputStreamWriter(out, charsetName)}. */
    public FlowOutputStreamWriter(OutputStream out, String charsetName) throws UnsupportedEncodingException {
        super(out, charsetName);
        this.lock = guard;
        this.sink = out;
        this.encoder = replacing(Charset.forName(charsetName));
    }

    /** As {@code new OutputStreamWriter(out)}. */
    public FlowOutputStreamWriter(OutputStream out) {
        super(out);
        this.lock = guard;
        this.sink = out;
        this.encoder = replacing(Charset.defaultCharset());
    }

    /** As {@code new OutputStreamWriter(out, cs)}. */
    public FlowOutputStreamWriter(OutputStream out, Charset cs) {
        super(out, cs);
        this.lock = guard;
        this.sink = out;
        this.encoder = replacing(cs);
    }

    /** As {@code new OutputStreamWriter(out, enc)}: {@code enc}'s error actions are kept. */
    public FlowOutputStreamWriter(OutputStream out, CharsetEncoder enc) {
        super(out, enc);
        this.lock = guard;
        this.sink = out;
        this.encoder = enc;
    }

    /** Asks the JDK's own writer whether 600 one-char writes reach the stream before a flush. */
    private static boolean probeGrowth() {
        int[] reached = new int[1];
        OutputStream counting = new OutputStream() {
            @Override
            public void write(int b) {
                reached[0]++;
            }

            @Override
            public void write(byte[] b, int off, int len) {
                reached[0] += len;
            }
        };
        try {
            OutputStreamWriter w = new OutputStreamWriter(counting, java.nio.charset.StandardCharsets.US_ASCII);
            for (int i = 0; i < 600; i++) {
                w.write('a');
            }
        } catch (IOException e) {
            return false;
        }
        return reached[0] > 0;
    }

    private static CharsetEncoder replacing(Charset cs) {
        return cs.newEncoder().onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
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
    public void write(int c) throws IOException {
        write(new char[] {(char) c}, 0, 1);
    }

    @Override
    public void write(char[] cbuf, int off, int len) throws IOException {
        Object me = guard.take();
        try {
            ensureOpen();
            if (cbuf == null || JdkChecks.outOfBounds(off, len, cbuf.length)) {
                throw JdkChecks.outputStreamWriterWrite(cbuf, off, len);
            }
            if (len == 0) {
                return;
            }
            encode(CharBuffer.wrap(cbuf, off, len));
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void write(String str, int off, int len) throws IOException {
        if (len < 0) {
            throw new IndexOutOfBoundsException();
        }
        char[] cbuf = new char[len];
        str.getChars(off, off + len, cbuf, 0);
        write(cbuf, 0, len);
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

    private void encode(CharBuffer cb) throws IOException {
        if (haveLeftoverChar) {
            flushLeftoverChar(cb, false);
        }
        if (GROWS && bb.capacity() < BYTES) {
            int wanted = Math.min(cb.remaining() * Math.round(encoder.maxBytesPerChar()), BYTES);
            if (wanted > bb.capacity()) {
                if (bb.position() > 0) {
                    writeBytes();
                }
                bb = ByteBuffer.allocate(wanted);
            }
        }
        while (cb.hasRemaining()) {
            CoderResult cr = encoder.encode(cb, bb, false);
            if (cr.isUnderflow()) {
                if (cb.remaining() == 1) {
                    haveLeftoverChar = true;
                    leftoverChar = cb.get();
                }
                break;
            }
            if (cr.isOverflow()) {
                writeBytes();
                continue;
            }
            cr.throwException();
        }
    }

    private void flushLeftoverChar(CharBuffer cb, boolean endOfInput) throws IOException {
        if (!haveLeftoverChar && !endOfInput) {
            return;
        }
        if (lcb == null) {
            lcb = CharBuffer.allocate(2);
        } else {
            lcb.clear();
        }
        if (haveLeftoverChar) {
            lcb.put(leftoverChar);
        }
        if (cb != null && cb.hasRemaining()) {
            lcb.put(cb.get());
        }
        lcb.flip();
        while (lcb.hasRemaining() || endOfInput) {
            CoderResult cr = encoder.encode(lcb, bb, endOfInput);
            if (cr.isUnderflow()) {
                if (lcb.hasRemaining()) {
                    leftoverChar = lcb.get();
                    if (cb != null && cb.hasRemaining()) {
                        lcb.clear();
                        lcb.put(leftoverChar).put(cb.get()).flip();
                        continue;
                    }
                    return;
                }
                break;
            }
            if (cr.isOverflow()) {
                writeBytes();
                continue;
            }
            cr.throwException();
        }
        haveLeftoverChar = false;
    }

    private void writeBytes() throws IOException {
        bb.flip();
        int rem = bb.remaining();
        if (rem > 0) {
            sink.write(bb.array(), bb.arrayOffset() + bb.position(), rem);
        }
        bb.clear();
    }

    /** Writes the buffered bytes to the stream without flushing the stream. */
    void flushBuffer() throws IOException {
        Object me = guard.take();
        try {
            ensureOpen();
            if (bb.position() > 0) {
                writeBytes();
            }
        } finally {
            guard.release(me);
        }
    }

    @Override
    public void flush() throws IOException {
        Object me = guard.take();
        try {
            ensureOpen();
            if (bb.position() > 0) {
                writeBytes();
            }
            sink.flush();
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
                closeEncoder();
            } finally {
                closed = true;
            }
        } finally {
            guard.release(me);
        }
    }

    private void closeEncoder() throws IOException {
        try {
            try {
                flushLeftoverChar(null, true);
                for (;;) {
                    CoderResult cr = encoder.flush(bb);
                    if (cr.isUnderflow()) {
                        break;
                    }
                    if (cr.isOverflow()) {
                        writeBytes();
                        continue;
                    }
                    cr.throwException();
                }
                if (bb.position() > 0) {
                    writeBytes();
                }
                sink.flush();
            } catch (IOException x) {
                encoder.reset();
                throw x;
            }
        } finally {
            sink.close();
        }
    }
}
