package dev.flow.jdk;

import dev.flow.internal.FlowInputDecorator;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PushbackInputStream;

/**
 * A {@link PushbackInputStream} whose reads suspend a flow where the JDK's would block inside its own
 * frames: the {@code ContinuationClassLoader} creates one wherever loaded code creates a {@code
 * PushbackInputStream}, and makes in-scope subclasses extend it. Its state is the JDK's own protected
 * fields ({@code buf}, {@code pos}), so {@code unread}, {@code available} and {@code close} stay the
 * JDK's.
 *
 * <p>Public only because loaded code names it; not an API. Thread-safe as far as the JDK's is: reads
 * are not synchronized there either.
 */
public class FlowPushbackInputStream extends PushbackInputStream implements FlowInputDecorator {

    /** As {@code new PushbackInputStream(in)}. */
    public FlowPushbackInputStream(InputStream in) {
        super(in);
    }

    /** As {@code new PushbackInputStream(in, size)}. */
    public FlowPushbackInputStream(InputStream in, int size) {
        super(in, size);
    }

    private void ensureOpen() throws IOException {
        if (in == null) {
            throw new IOException("Stream closed");
        }
    }

    @Override
    public int read() throws IOException {
        ensureOpen();
        if (pos < buf.length) {
            return buf[pos++] & 0xff;
        }
        return in.read();
    }

    @Override
    public int read(byte[] b, int offset, int length) throws IOException {
        int off = offset;
        int len = length;
        ensureOpen();
        if (b == null || JdkChecks.outOfBounds(off, len, b.length)) {
            throw JdkChecks.pushbackRead(b, off, len);
        }
        if (len == 0) {
            return 0;
        }
        int avail = buf.length - pos;
        if (avail > 0) {
            if (len < avail) {
                avail = len;
            }
            System.arraycopy(buf, pos, b, off, avail);
            pos += avail;
            off += avail;
            len -= avail;
        }
        if (len > 0) {
            len = in.read(b, off, len);
            if (len == -1) {
                return avail == 0 ? -1 : avail;
            }
            return avail + len;
        }
        return avail;
    }

    @Override
    public int read(byte[] b) throws IOException {
        if (b == null) {
            return super.read(b);
        }
        return read(b, 0, b.length);
    }

    @Override
    public long skip(long count) throws IOException {
        long n = count;
        ensureOpen();
        if (n <= 0) {
            return 0;
        }
        long pskip = buf.length - pos;
        if (pskip > 0) {
            if (n < pskip) {
                pskip = n;
            }
            pos += (int) pskip;
            n -= pskip;
        }
        if (n > 0) {
            pskip += in.skip(n);
        }
        return pskip;
    }

    @Override
    public byte[] readAllBytes() throws IOException {
        return InputStreams.readNBytes(this, Integer.MAX_VALUE);
    }

    @Override
    public byte[] readNBytes(int len) throws IOException {
        return InputStreams.readNBytes(this, len);
    }

    @Override
    public int readNBytes(byte[] b, int off, int len) throws IOException {
        return InputStreams.readNBytes(this, b, off, len);
    }

    @Override
    public void skipNBytes(long n) throws IOException {
        InputStreams.skipNBytes(this, n);
    }

    @Override
    public long transferTo(OutputStream out) throws IOException {
        return InputStreams.transferTo(this, out);
    }

    /** What this decorator reads from ({@link FlowInputDecorator}): not an API. */
    @Override
    public Object flowSource() {
        return in;
    }
}
