package flowtest.conformance.decorators;

import flowtest.support.Async;
import flowtest.support.ChunkedTransport;
import java.io.BufferedOutputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code BufferedOutputStream} and {@code DataOutputStream} (and in-scope subclasses of each) over a
 * transport's output view: what reaches the transport, byte for byte, before and after {@code flush()}
 * and {@code close()} (small buffers, writes larger than the buffer), every {@code DataOutput} write,
 * {@code size()}, {@code writeUTF} too long, argument errors and closed streams.
 */
public final class OutputStreamBattery implements Callable<Object> {

    /** Frames each record with its length, as a protocol's writer would. */
    static final class Framing extends DataOutputStream {
        Framing(OutputStream out) {
            super(out);
        }

        void frame(String s) throws IOException {
            writeShort(s.length());
            writeBytes(s);
            flush();
        }
    }

    /** Counts the flushes of its buffer. */
    static final class CountingBuffered extends BufferedOutputStream {
        int flushes;

        CountingBuffered(OutputStream out) {
            super(out, 3);
        }

        @Override
        public void flush() throws IOException {
            flushes++;
            super.flush();
        }

        int buffered() {
            return count;
        }
    }

    private static void writeAll(DataOutput d) throws IOException {
        d.writeBoolean(true);
        d.writeByte(0x1FF);
        d.writeShort(-2);
        d.writeChar('\u20ac');
        d.writeInt(0x12345678);
        d.writeLong(-3L);
        d.writeFloat(1.5f);
        d.writeDouble(Math.PI);
        d.writeBytes("b\u20ac");
        d.writeChars("c\u20ac");
        d.writeUTF("h\u00e9\u0000\ud83d\ude00");
        d.write(7);
        d.write(new byte[] {8, 9});
        d.write(new byte[] {10, 11, 12}, 1, 2);
    }

    @Override
    public Object call() throws Exception {
        Battery b = new Battery();
        b.step("first", () -> Async.later("awaited").get());
        b.step("data unbuffered", () -> {
            ChunkedTransport t = new ChunkedTransport(List.of());
            DataOutputStream d = new DataOutputStream(t.outputStream());
            writeAll(d);
            return d.size() + ":" + Battery.hex(t.written());
        });
        b.step("data buffered", () -> {
            ChunkedTransport t = new ChunkedTransport(List.of());
            DataOutputStream d = new DataOutputStream(new BufferedOutputStream(t.outputStream(), 5));
            writeAll(d);
            String before = Battery.hex(t.written());
            d.flush();
            return d.size() + ":" + before + "|" + Battery.hex(t.written());
        });
        b.step("utf too long", () -> {
            ChunkedTransport t = new ChunkedTransport(List.of());
            DataOutputStream d = new DataOutputStream(t.outputStream());
            d.writeByte(1);
            try {
                d.writeUTF("\u20ac".repeat(30000));
            } catch (IOException e) {
                return e + "|" + d.size() + ":" + Battery.hex(t.written());
            }
            return "written";
        });
        b.step("data bounds", () -> {
            new DataOutputStream(new ChunkedTransport(List.of()).outputStream()).write(new byte[2], 1, 2);
            return "written";
        });
        b.step("data closed", () -> {
            ChunkedTransport t = new ChunkedTransport(List.of());
            DataOutputStream d = new DataOutputStream(new BufferedOutputStream(t.outputStream()));
            d.writeInt(1);
            d.close();
            d.close();
            return d.size() + ":" + Battery.hex(t.written());
        });
        b.step("subclass frames", () -> {
            ChunkedTransport t = new ChunkedTransport(List.of());
            Framing f = new Framing(new BufferedOutputStream(t.outputStream(), 4));
            f.frame("hello");
            f.frame("");
            return f.size() + ":" + Battery.hex(t.written());
        });
        b.step("buffered", () -> {
            ChunkedTransport t = new ChunkedTransport(List.of());
            BufferedOutputStream o = new BufferedOutputStream(t.outputStream(), 4);
            StringBuilder r = new StringBuilder();
            o.write(1);
            o.write(new byte[] {2, 3, 4});
            r.append(Battery.hex(t.written())).append(',');
            o.write(5);
            r.append(Battery.hex(t.written())).append(',');
            o.write(new byte[] {6, 7, 8, 9, 10}, 1, 4);
            r.append(Battery.hex(t.written())).append(',');
            o.write(new byte[] {11, 12});
            o.write(new byte[] {13, 14, 15});
            r.append(Battery.hex(t.written())).append(',');
            o.flush();
            r.append(Battery.hex(t.written()));
            o.write(16);
            o.close();
            o.close();
            return r.append(',').append(Battery.hex(t.written()));
        });
        b.step("buffered bounds", () -> {
            ChunkedTransport t = new ChunkedTransport(List.of());
            BufferedOutputStream o = new BufferedOutputStream(t.outputStream(), 4);
            o.write(1);
            o.write(new byte[3], 2, 2);
            return Battery.hex(t.written());
        });
        b.step("buffered bounds large", () -> {
            ChunkedTransport t = new ChunkedTransport(List.of());
            BufferedOutputStream o = new BufferedOutputStream(t.outputStream(), 4);
            o.write(1);
            o.write(new byte[8], 6, 5);
            return Battery.hex(t.written());
        });
        b.step("buffered size", () -> new BufferedOutputStream(new ChunkedTransport(List.of()).outputStream(), -1));
        b.step("counting subclass", () -> {
            ChunkedTransport t = new ChunkedTransport(List.of());
            CountingBuffered o = new CountingBuffered(t.outputStream());
            o.write(new byte[] {1, 2});
            int before = o.buffered();
            o.write(new byte[] {3, 4});
            o.close();
            return before + "," + o.flushes + ":" + Battery.hex(t.written());
        });
        return b.toString();
    }
}
