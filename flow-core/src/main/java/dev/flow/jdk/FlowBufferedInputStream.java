package dev.flow.jdk;

import dev.flow.internal.FlowInputDecorator;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * A {@link BufferedInputStream} whose reads suspend a flow where the JDK's would block inside its own
 * frames: the {@code ContinuationClassLoader} creates one wherever loaded code creates a {@code
 * BufferedInputStream}, and makes in-scope subclasses extend it. Its state is the JDK's own protected
 * fields ({@code buf}, {@code count}, {@code pos}, {@code markpos}, {@code marklimit}), filled and
 * grown for a mark as the JDK does, so {@code available}, {@code mark}, {@code reset} and {@code close}
 * stay the JDK's and subclasses see what they would see.
 *
 * <p>Public only because loaded code names it; not an API. Thread-safe: readers are excluded from
 * each other by a lock the flow owns (the JDK's other methods keep their monitor).
 */
public class FlowBufferedInputStream extends BufferedInputStream implements FlowInputDecorator {

    private static final int SOFT_MAX = Integer.MAX_VALUE - 8;

    private final FlowMonitor guard = new FlowMonitor();

    /** As {@code new BufferedInputStream(in)}. */
    public FlowBufferedInputStream(InputStream in) {
        super(in);
    }

    /** As {@code new BufferedInputStream(in, size)}. */
    public FlowBufferedInputStream(InputStream in, int size) {
        super(in, size);
    }

    private byte[] bufIfOpen() throws IOException {
        byte[] b = buf;
        if (b == null) {
            throw new IOException("Stream closed");
        }
        return b;
    }

    private InputStream inIfOpen() throws IOException {
        InputStream input = in;
        if (input == null) {
            throw new IOException("Stream closed");
        }
        return input;
    }

    private void fill() throws IOException {
        byte[] buffer = bufIfOpen();
        if (markpos < 0) {
            pos = 0;
        } else if (pos >= buffer.length) {
            if (markpos > 0) {
                int sz = pos - markpos;
                System.arraycopy(buffer, markpos, buffer, 0, sz);
                pos = sz;
                markpos = 0;
            } else if (buffer.length >= marklimit) {
                markpos = -1;
                pos = 0;
            } else {
                int nsz = (int) Math.min((long) pos + Math.max(1, pos), SOFT_MAX);
                if (nsz > marklimit) {
                    nsz = marklimit;
                }
                byte[] nbuf = new byte[nsz];
                System.arraycopy(buffer, 0, nbuf, 0, pos);
                buf = nbuf;
                buffer = nbuf;
            }
        }
        count = pos;
        int n = inIfOpen().read(buffer, pos, buffer.length - pos);
        if (n > 0) {
            count = n + pos;
        }
    }

    @Override
    public int read() throws IOException {
        Object me = guard.take();
        try {
            if (pos >= count) {
                fill();
                if (pos >= count) {
                    return -1;
                }
            }
            return bufIfOpen()[pos++] & 0xff;
        } finally {
            guard.release(me);
        }
    }

    private int read1(byte[] b, int off, int len) throws IOException {
        int avail = count - pos;
        if (avail <= 0) {
            if (len >= bufIfOpen().length && markpos < 0) {
                return inIfOpen().read(b, off, len);
            }
            fill();
            avail = count - pos;
            if (avail <= 0) {
                return -1;
            }
        }
        int cnt = Math.min(avail, len);
        System.arraycopy(bufIfOpen(), pos, b, off, cnt);
        pos += cnt;
        return cnt;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Object me = guard.take();
        try {
            bufIfOpen();
            if (b == null || JdkChecks.outOfBounds(off, len, b.length)) {
                throw JdkChecks.bufferedInputStreamRead(b, off, len);
            }
            if (len == 0) {
                return 0;
            }
            int n = 0;
            for (;;) {
                int nread = read1(b, off + n, len - n);
                if (nread <= 0) {
                    return n == 0 ? nread : n;
                }
                n += nread;
                if (n >= len) {
                    return n;
                }
                InputStream input = in;
                if (input != null && input.available() <= 0) {
                    return n;
                }
            }
        } finally {
            guard.release(me);
        }
    }

    @Override
    public int read(byte[] b) throws IOException {
        if (b == null) {
            return super.read(b);
        }
        return read(b, 0, b.length);
    }

    @Override
    public long skip(long n) throws IOException {
        Object me = guard.take();
        try {
            bufIfOpen();
            if (n <= 0) {
                return 0;
            }
            long avail = count - pos;
            if (avail <= 0) {
                if (markpos < 0) {
                    return inIfOpen().skip(n);
                }
                fill();
                avail = count - pos;
                if (avail <= 0) {
                    return 0;
                }
            }
            long skipped = Math.min(avail, n);
            pos += (int) skipped;
            return skipped;
        } finally {
            guard.release(me);
        }
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
