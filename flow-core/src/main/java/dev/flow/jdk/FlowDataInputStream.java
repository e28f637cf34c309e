package dev.flow.jdk;

import dev.flow.internal.FlowInputDecorator;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PushbackInputStream;

/**
 * A {@link DataInputStream} whose reads suspend a flow where the JDK's would block inside its own
 * frames: the {@code ContinuationClassLoader} creates one wherever loaded code creates a {@code
 * DataInputStream}, and makes in-scope subclasses extend it. {@code DataInputStream}'s reads are
 * final, so loaded code's calls of them go to {@link FlowData}, which reads here for this class and
 * makes the JDK's call for any other. Values, end of stream ({@code EOFException}, after the bytes
 * the JDK would have consumed), the calls made on the underlying stream (single-byte reads where the
 * running JDK makes them) and {@code readUTF}'s decoding (the JDK's own) are the JDK's.
 *
 * <p>Public only because loaded code names it; not an API. Not thread-safe, as the JDK's is not.
 */
public class FlowDataInputStream extends DataInputStream implements FlowInputDecorator {

    /** Whether the running JDK reads a {@code short}, {@code char} or {@code int} a byte at a time (JDK 17). */
    private static final boolean SINGLE_BYTE_READS = probeSingleByteReads();

    private final byte[] readBuffer = new byte[8];

    /** As {@code new DataInputStream(in)}. */
    public FlowDataInputStream(InputStream in) {
        super(in);
    }

    private static boolean probeSingleByteReads() {
        int[] singles = new int[1];
        InputStream counting = new InputStream() {
            @Override
            public int read() {
                singles[0]++;
                return 0;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                return len;
            }
        };
        try {
            new DataInputStream(counting).readInt();
        } catch (IOException e) {
            return false;
        }
        return singles[0] == 4;
    }

    @Override
    public int read() throws IOException {
        return in.read();
    }

    @Override
    public long skip(long n) throws IOException {
        return in.skip(n);
    }

    @Override
    public byte[] readAllBytes() throws IOException {
        return InputStreams.readNBytes(in, Integer.MAX_VALUE);
    }

    @Override
    public byte[] readNBytes(int len) throws IOException {
        return InputStreams.readNBytes(in, len);
    }

    @Override
    public int readNBytes(byte[] b, int off, int len) throws IOException {
        return InputStreams.readNBytes(in, b, off, len);
    }

    @Override
    public void skipNBytes(long n) throws IOException {
        InputStreams.skipNBytes(this, n);
    }

    @Override
    public long transferTo(OutputStream out) throws IOException {
        return InputStreams.transferTo(in, out);
    }

    int read0(byte[] b, int off, int len) throws IOException {
        return in.read(b, off, len);
    }

    void readFully0(byte[] b, int off, int len) throws IOException {
        int n = 0;
        while (n < len) {
            int count = in.read(b, off + n, len - n);
            if (count < 0) {
                throw new EOFException();
            }
            n += count;
        }
    }

    int skipBytes0(int n) throws IOException {
        int total = 0;
        int cur;
        while (total < n && (cur = (int) in.skip(n - total)) > 0) {
            total += cur;
        }
        return total;
    }

    int readUnsignedByte0() throws IOException {
        int ch = in.read();
        if (ch < 0) {
            throw new EOFException();
        }
        return ch;
    }

    /** The next {@code n} bytes (2 or 4) big-endian, read as the running JDK reads them. */
    private int readBigEndian(int n) throws IOException {
        if (SINGLE_BYTE_READS) {
            int v = 0;
            int all = 0;
            for (int i = 0; i < n; i++) {
                int ch = in.read();
                all |= ch;
                v = (v << 8) + ch;
            }
            if (all < 0) {
                throw new EOFException();
            }
            return v;
        }
        readFully0(readBuffer, 0, n);
        int v = 0;
        for (int i = 0; i < n; i++) {
            v = (v << 8) | (readBuffer[i] & 0xff);
        }
        return v;
    }

    int readUnsignedShort0() throws IOException {
        return readBigEndian(2);
    }

    int readInt0() throws IOException {
        return readBigEndian(4);
    }

    long readLong0() throws IOException {
        readFully0(readBuffer, 0, 8);
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (readBuffer[i] & 0xff);
        }
        return v;
    }

    /** The deprecated {@code readLine}: a lone CR followed by another byte pushes it back, as the JDK's. */
    String readLine0() throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        loop:
        for (;;) {
            c = in.read();
            switch (c) {
                case -1:
                case '\n':
                    break loop;
                case '\r':
                    int c2 = in.read();
                    if (c2 != '\n' && c2 != -1) {
                        if (!(in instanceof PushbackInputStream)) {
                            in = new FlowPushbackInputStream(in);
                        }
                        ((PushbackInputStream) in).unread(c2);
                    }
                    break loop;
                default:
                    line.append((char) c);
                    break;
            }
        }
        if (c == -1 && line.length() == 0) {
            return null;
        }
        return line.toString();
    }

    /** Decodes a {@code readUTF} body of {@code utflen} bytes with the JDK's own decoder and errors. */
    static String decodeUtf(int utflen, byte[] body) throws IOException {
        byte[] framed = new byte[utflen + 2];
        framed[0] = (byte) (utflen >>> 8);
        framed[1] = (byte) utflen;
        System.arraycopy(body, 0, framed, 2, utflen);
        return DataInputStream.readUTF(new DataInputStream(new ByteArrayInputStream(framed)));
    }

    String readUTF0() throws IOException {
        int utflen = readUnsignedShort0();
        byte[] body = new byte[utflen];
        readFully0(body, 0, utflen);
        return decodeUtf(utflen, body);
    }

    /** What this decorator reads from ({@link FlowInputDecorator}): not an API. */
    @Override
    public Object flowSource() {
        return in;
    }
}
