package flowtest.conformance.decorators;

import flowtest.support.ChunkedTransport;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/**
 * {@code BufferedInputStream}, {@code PushbackInputStream} and {@code DataInputStream} (and in-scope
 * subclasses of each) over a transport's input view whose bytes arrive one or a few at a time: every
 * {@code DataInput} read, end of stream inside a value, {@code readUTF} (valid, malformed, through the
 * static form and the interface), {@code mark/reset} past the buffer, {@code skip}, {@code available},
 * {@code unread}, the {@code InputStream} defaults ({@code readAllBytes}, {@code readNBytes}, {@code
 * transferTo}, {@code skipNBytes}), argument errors and closed streams.
 */
public final class InputStreamBattery implements Callable<Object> {

    /** Counts the single-byte reads its callers make, as a library's metering stream would. */
    static final class CountingBuffered extends BufferedInputStream {
        int reads;

        CountingBuffered(InputStream in, int size) {
            super(in, size);
        }

        @Override
        public int read() throws IOException {
            reads++;
            return super.read();
        }

        int buffered() {
            return count - pos;
        }
    }

    /** Peeks by reading and pushing back. */
    static final class Peeking extends PushbackInputStream {
        Peeking(InputStream in) {
            super(in, 2);
        }

        int peek() throws IOException {
            int c = read();
            if (c >= 0) {
                unread(c);
            }
            return c;
        }
    }

    /** A protocol's message reader, called through its own type. */
    static final class Messages extends DataInputStream {
        Messages(InputStream in) {
            super(in);
        }

        String message() throws IOException {
            int len = readUnsignedShort();
            byte[] b = new byte[len];
            readFully(b);
            return new String(b, StandardCharsets.US_ASCII) + "#" + readInt();
        }
    }

    private static InputStream in(byte[] input, int chunk) {
        return ChunkedTransport.of(input, chunk).inputStream();
    }

    private static byte[] bytes(int... b) {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = (byte) b[i];
        }
        return out;
    }

    private static byte[] values() {
        return bytes(1, 0x80, 0xFF, 0x80, 0x01, 0xFF, 0xFE, 0x00, 0x41, 0x12, 0x34, 0x56, 0x78,
                0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x3F, 0x80, 0x00, 0x00,
                0x40, 0x09, 0x21, 0xFB, 0x54, 0x44, 0x2D, 0x18, 0x00, 0x05, 'h', 0xC3, 0xA9, 'l', 'o',
                'l', 'i', 'n', 'e', '\r', '\n', 'n', 'e', 'x', 't', '\r', 'z', 0x00, 0x01);
    }

    private static String all(DataInput d) throws IOException {
        StringBuilder s = new StringBuilder();
        s.append(d.readBoolean()).append(',').append(d.readByte()).append(',').append(d.readUnsignedByte()).append(',')
                .append(d.readShort()).append(',').append(d.readUnsignedShort()).append(',').append((int) d.readChar()).append(',')
                .append(d.readInt()).append(',').append(d.readLong()).append(',').append(d.readFloat()).append(',')
                .append(d.readDouble()).append(',').append(Battery.escape(d.readUTF())).append(',').append(d.readLine()).append(',')
                .append(d.readLine()).append(',').append(d.readLine());
        try {
            d.readInt();
        } catch (IOException e) {
            s.append(',').append(e);
        }
        return s.toString();
    }

    @Override
    public Object call() throws Exception {
        Battery b = new Battery();
        b.step("data by 1", () -> all(new DataInputStream(in(values(), 1))));
        b.step("data buffered by 3", () -> all(new DataInputStream(new BufferedInputStream(in(values(), 3), 5))));
        b.step("data made outside the scope", () -> {
            DataInputStream d = flowtest.support.Foreign.dataInput(bytes(7, 8, 9, 10, 11, 12));
            byte[] f = new byte[3];
            d.readFully(f, 1, 2);
            return Battery.hex(f) + d.read(f) + d.read(f, 0, 3) + d.read(f) + all(flowtest.support.Foreign.dataInput(values()))
                    + DataInputStream.readUTF(flowtest.support.Foreign.dataInput(bytes(0, 3, 'a', 0xC3, 0xA9)));
        });
        b.step("data made outside the scope, malformed", () -> flowtest.support.Foreign.dataInput(bytes(0, 3, 'a', 0xC3, 0x28))
                .readUTF());
        b.step("data made outside the scope, at end", () -> {
            DataInputStream d = flowtest.support.Foreign.dataInput(bytes(1, 2, 3));
            byte[] f = new byte[4];
            try {
                d.readFully(f);
            } catch (IOException e) {
                return e + Battery.hex(f);
            }
            return "read";
        });
        b.step("data through the interface", () -> {
            DataInput d = new DataInputStream(in(values(), 2));
            byte[] f = new byte[4];
            d.readFully(f);
            d.readFully(f, 1, 2);
            return Battery.hex(f) + d.skipBytes(3) + "," + d.readLong() + "," + d.skipBytes(100);
        });
        b.step("data reads", () -> {
            DataInputStream d = new DataInputStream(in(values(), 3));
            byte[] f = new byte[6];
            int n1 = d.read(f);
            int n2 = d.read(f, 2, 4);
            return n1 + "," + n2 + "," + Battery.hex(f) + "," + d.read() + "," + d.available() + "," + d.skip(2) + ","
                    + Battery.hex(d.readNBytes(3)) + "," + d.readNBytes(f, 0, 2) + "," + Battery.hex(d.readAllBytes()) + ","
                    + d.read(f) + "," + d.read(f, 0, 0);
        });
        b.step("readFully at end", () -> {
            DataInputStream d = new DataInputStream(in(bytes(1, 2, 3), 1));
            byte[] f = new byte[4];
            try {
                d.readFully(f);
            } catch (IOException e) {
                return e + Battery.hex(f) + d.read();
            }
            return "read";
        });
        b.step("readFully bounds", () -> {
            new DataInputStream(in(bytes(1, 2, 3), 1)).readFully(new byte[4], 3, 2);
            return "read";
        });
        b.step("readLong at end", () -> new DataInputStream(in(bytes(1, 2, 3), 2)).readLong());
        b.step("readShort at end", () -> new DataInputStream(in(bytes(1), 2)).readShort());
        b.step("readUTF malformed", () -> new DataInputStream(in(bytes(0, 3, 'a', 0xC3, 0x28), 1)).readUTF());
        b.step("readUTF truncated", () -> new DataInputStream(in(bytes(0, 3, 'a', 0xE2, 0x82), 1)).readUTF());
        b.step("readUTF short", () -> new DataInputStream(in(bytes(0, 9, 'a'), 1)).readUTF());
        b.step("static readUTF", () -> DataInputStream.readUTF(new DataInputStream(in(bytes(0, 2, 'o', 'k'), 1))));
        b.step("data transferTo", () -> {
            DataInputStream d = new DataInputStream(in(values(), 7));
            d.skipNBytes(3);
            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            return d.transferTo(sink) + ":" + Battery.hex(sink.toByteArray());
        });
        b.step("subclass message", () -> {
            Messages m = new Messages(in(bytes(0, 3, 'a', 'b', 'c', 0, 0, 1, 0, 0, 1, 'x', 0, 0, 0, 2), 1));
            return m.message() + "|" + m.message();
        });
        b.step("buffered reads", () -> {
            BufferedInputStream s = new BufferedInputStream(in("0123456789abcdefghij".getBytes(StandardCharsets.US_ASCII), 3), 4);
            StringBuilder r = new StringBuilder().append((char) s.read()).append(s.available()).append(',');
            byte[] big = new byte[9];
            r.append(s.read(big)).append(new String(big, StandardCharsets.US_ASCII)).append(',');
            s.mark(10);
            r.append(s.read(big, 0, 6)).append(',');
            s.reset();
            r.append((char) s.read()).append(',').append(s.skip(3)).append(',').append(s.skip(50)).append(',').append(s.read())
                    .append(',').append(s.skip(1)).append(',').append(s.markSupported());
            return r;
        });
        b.step("buffered mark invalidated", () -> {
            BufferedInputStream s = new BufferedInputStream(in("0123456789abcdefghij".getBytes(StandardCharsets.US_ASCII), 2), 2);
            s.mark(3);
            for (int i = 0; i < 6; i++) {
                s.read();
            }
            try {
                s.reset();
                return "reset";
            } catch (IOException e) {
                return e.getMessage() + ":" + (char) s.read();
            }
        });
        b.step("buffered mark grows", () -> {
            BufferedInputStream s = new BufferedInputStream(in("0123456789abcdefghij".getBytes(StandardCharsets.US_ASCII), 3), 2);
            s.read();
            s.mark(12);
            byte[] x = new byte[11];
            int n = s.readNBytes(x, 0, 11);
            s.reset();
            return n + new String(x, StandardCharsets.US_ASCII) + ":" + new String(s.readAllBytes(), StandardCharsets.US_ASCII);
        });
        b.step("buffered never marked", () -> {
            BufferedInputStream s = new BufferedInputStream(in(bytes(1), 1));
            s.reset();
            return "reset";
        });
        b.step("buffered bounds", () -> new BufferedInputStream(in(bytes(1), 1)).read(new byte[2], 1, 2));
        b.step("buffered size", () -> new BufferedInputStream(in(bytes(1), 1), 0));
        b.step("buffered closed", () -> {
            BufferedInputStream s = new BufferedInputStream(in(bytes(1, 2), 1));
            s.close();
            s.close();
            return s.read();
        });
        b.step("buffered closed available", () -> {
            BufferedInputStream s = new BufferedInputStream(in(bytes(1, 2), 1));
            s.close();
            return s.available();
        });
        b.step("buffered transferTo", () -> {
            BufferedInputStream s = new BufferedInputStream(in("transfer me".getBytes(StandardCharsets.US_ASCII), 2), 3);
            s.read();
            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            return s.transferTo(sink) + sink.toString(StandardCharsets.US_ASCII);
        });
        b.step("counting subclass", () -> {
            CountingBuffered s = new CountingBuffered(in("abcdef".getBytes(StandardCharsets.US_ASCII), 1), 2);
            StringBuilder r = new StringBuilder();
            for (int c = s.read(); c >= 0; c = s.read()) {
                r.append((char) c).append(s.buffered());
            }
            return r.append(':').append(s.reads);
        });
        b.step("pushback", () -> {
            PushbackInputStream s = new PushbackInputStream(in("abcdefgh".getBytes(StandardCharsets.US_ASCII), 3), 3);
            StringBuilder r = new StringBuilder().append((char) s.read());
            s.unread('x');
            s.unread(new byte[] {'p', 'q'});
            byte[] x = new byte[4];
            r.append(s.read(x, 0, 4)).append(new String(x, StandardCharsets.US_ASCII)).append(s.available());
            s.unread('y');
            r.append(s.skip(3)).append((char) s.read());
            s.unread(new byte[] {'1', '2', '3'});
            try {
                s.unread('4');
            } catch (IOException e) {
                r.append(e.getMessage());
            }
            return r.append(new String(s.readAllBytes(), StandardCharsets.US_ASCII)).append(s.read()).append(s.read(x, 0, 2));
        });
        b.step("pushback bounds", () -> new PushbackInputStream(in(bytes(1), 1)).read(new byte[2], 2, 1));
        b.step("pushback size", () -> new PushbackInputStream(in(bytes(1), 1), 0));
        b.step("pushback closed", () -> {
            PushbackInputStream s = new PushbackInputStream(in(bytes(1), 1));
            s.close();
            return s.read();
        });
        b.step("peeking subclass", () -> {
            Peeking s = new Peeking(in("ab".getBytes(StandardCharsets.US_ASCII), 1));
            return "" + (char) s.peek() + (char) s.read() + (char) s.peek() + (char) s.read() + s.peek();
        });
        return b.toString();
    }
}
