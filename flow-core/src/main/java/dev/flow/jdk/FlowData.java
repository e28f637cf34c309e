package dev.flow.jdk;

import dev.flow.internal.Awaits;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.EOFException;
import java.io.IOException;

/**
 * Where loaded code's calls of {@code DataInputStream}'s and {@code DataOutputStream}'s final methods
 * go (also through {@code DataInput}, {@code DataOutput} and subclasses): for Flow's {@link
 * FlowDataInputStream} and {@link FlowDataOutputStream} the suspendable reads and writes, for any
 * other receiver the original call. A JDK {@code DataInputStream} made outside the scope gets its own
 * reads, each made, in a flow, once the bytes it needs are buffered under it ({@link
 * Awaits#awaitDecorated}): over a transport view it suspends instead of pinning; elsewhere it behaves
 * exactly as before. A JDK {@code DataOutputStream} made outside the scope gets its own writes, their waits
 * for a transport view under it deferred until the JDK's call returned ({@link Awaits#deferDecoratedWrites}),
 * where they suspend. Null and out-of-range arguments are passed to the JDK's method, which fails as
 * it does (before any I/O). Public only because loaded code calls it; not an API. Stateless.
 */
public final class FlowData {

    private FlowData() {
    }

    /** Replaces {@code DataInputStream.read(byte[])}. */
    public static int read(DataInputStream d, byte[] b) throws IOException {
        if (d instanceof FlowDataInputStream && b != null) {
            return ((FlowDataInputStream) d).read0(b, 0, b.length);
        }
        return Awaits.readDecorated(d, b);
    }

    /** Replaces {@code DataInputStream.read(byte[], int, int)}. */
    public static int read(DataInputStream d, byte[] b, int off, int len) throws IOException {
        if (d instanceof FlowDataInputStream) {
            return ((FlowDataInputStream) d).read0(b, off, len);
        }
        return Awaits.readDecorated(d, b, off, len);
    }

    /** Replaces {@code readFully(byte[])}. */
    public static void readFully(DataInput d, byte[] b) throws IOException {
        if (b == null) {
            d.readFully(b);
            return;
        }
        readFully(d, b, 0, b.length);
    }

    /**
     * Replaces {@code readFully(byte[], int, int)}: for a {@code DataInputStream} made outside the scope,
     * the JDK's loop of {@code read}s, each made once a byte is there.
     */
    public static void readFully(DataInput d, byte[] b, int off, int len) throws IOException {
        if (b == null || JdkChecks.outOfBounds(off, len, b.length)) {
            d.readFully(b, off, len);
        } else if (d instanceof FlowDataInputStream) {
            ((FlowDataInputStream) d).readFully0(b, off, len);
        } else if (d instanceof DataInputStream) {
            int n = 0;
            while (n < len) {
                int count = read((DataInputStream) d, b, off + n, len - n);
                if (count < 0) {
                    throw new EOFException();
                }
                n += count;
            }
        } else {
            d.readFully(b, off, len);
        }
    }

    /**
     * Replaces {@code skipBytes(int)}: for a {@code DataInputStream} made outside the scope, the JDK's loop of
     * {@code skip}s, each made once a byte is there.
     */
    public static int skipBytes(DataInput d, int n) throws IOException {
        if (d instanceof FlowDataInputStream) {
            return ((FlowDataInputStream) d).skipBytes0(n);
        }
        if (!(d instanceof DataInputStream)) {
            return d.skipBytes(n);
        }
        int total = 0;
        int cur;
        while (total < n && (cur = (int) Awaits.skipDecorated((DataInputStream) d, n - total)) > 0) {
            total += cur;
        }
        return total;
    }

    /** Replaces {@code readBoolean()}. */
    public static boolean readBoolean(DataInput d) throws IOException {
        if (d instanceof FlowDataInputStream) {
            return ((FlowDataInputStream) d).readUnsignedByte0() != 0;
        }
        boolean ready = Awaits.awaitDecorated(d, 1);
        try {
            return d.readBoolean();
        } finally {
            Awaits.endDecorated(ready);
        }
    }

    /** Replaces {@code readByte()}. */
    public static byte readByte(DataInput d) throws IOException {
        if (d instanceof FlowDataInputStream) {
            return (byte) ((FlowDataInputStream) d).readUnsignedByte0();
        }
        boolean ready = Awaits.awaitDecorated(d, 1);
        try {
            return d.readByte();
        } finally {
            Awaits.endDecorated(ready);
        }
    }

    /** Replaces {@code readUnsignedByte()}. */
    public static int readUnsignedByte(DataInput d) throws IOException {
        if (d instanceof FlowDataInputStream) {
            return ((FlowDataInputStream) d).readUnsignedByte0();
        }
        boolean ready = Awaits.awaitDecorated(d, 1);
        try {
            return d.readUnsignedByte();
        } finally {
            Awaits.endDecorated(ready);
        }
    }

    /** Replaces {@code readShort()}. */
    public static short readShort(DataInput d) throws IOException {
        if (d instanceof FlowDataInputStream) {
            return (short) ((FlowDataInputStream) d).readUnsignedShort0();
        }
        boolean ready = Awaits.awaitDecorated(d, 2);
        try {
            return d.readShort();
        } finally {
            Awaits.endDecorated(ready);
        }
    }

    /** Replaces {@code readUnsignedShort()}. */
    public static int readUnsignedShort(DataInput d) throws IOException {
        if (d instanceof FlowDataInputStream) {
            return ((FlowDataInputStream) d).readUnsignedShort0();
        }
        boolean ready = Awaits.awaitDecorated(d, 2);
        try {
            return d.readUnsignedShort();
        } finally {
            Awaits.endDecorated(ready);
        }
    }

    /** Replaces {@code readChar()}. */
    public static char readChar(DataInput d) throws IOException {
        if (d instanceof FlowDataInputStream) {
            return (char) ((FlowDataInputStream) d).readUnsignedShort0();
        }
        boolean ready = Awaits.awaitDecorated(d, 2);
        try {
            return d.readChar();
        } finally {
            Awaits.endDecorated(ready);
        }
    }

    /** Replaces {@code readInt()}. */
    public static int readInt(DataInput d) throws IOException {
        if (d instanceof FlowDataInputStream) {
            return ((FlowDataInputStream) d).readInt0();
        }
        boolean ready = Awaits.awaitDecorated(d, 4);
        try {
            return d.readInt();
        } finally {
            Awaits.endDecorated(ready);
        }
    }

    /** Replaces {@code readLong()}. */
    public static long readLong(DataInput d) throws IOException {
        if (d instanceof FlowDataInputStream) {
            return ((FlowDataInputStream) d).readLong0();
        }
        boolean ready = Awaits.awaitDecorated(d, 8);
        try {
            return d.readLong();
        } finally {
            Awaits.endDecorated(ready);
        }
    }

    /** Replaces {@code readFloat()}. */
    public static float readFloat(DataInput d) throws IOException {
        if (d instanceof FlowDataInputStream) {
            return Float.intBitsToFloat(((FlowDataInputStream) d).readInt0());
        }
        boolean ready = Awaits.awaitDecorated(d, 4);
        try {
            return d.readFloat();
        } finally {
            Awaits.endDecorated(ready);
        }
    }

    /** Replaces {@code readDouble()}. */
    public static double readDouble(DataInput d) throws IOException {
        if (d instanceof FlowDataInputStream) {
            return Double.longBitsToDouble(((FlowDataInputStream) d).readLong0());
        }
        boolean ready = Awaits.awaitDecorated(d, 8);
        try {
            return d.readDouble();
        } finally {
            Awaits.endDecorated(ready);
        }
    }

    /**
     * Replaces the deprecated {@code readLine()}: on a {@code DataInputStream} made outside the scope over a
     * transport view, reported at the caller's site first ({@link Awaits#beforeDecoratedReadLine}).
     */
    @SuppressWarnings("deprecation")
    public static String readLine(DataInput d) throws IOException {
        if (!(d instanceof FlowDataInputStream)) {
            if (d instanceof DataInputStream) {
                Awaits.beforeDecoratedReadLine((DataInputStream) d);
            }
            return d.readLine();
        }
        return ((FlowDataInputStream) d).readLine0();
    }

    /** Replaces {@code readUTF()}. */
    public static String readUTF(DataInput d) throws IOException {
        if (d instanceof FlowDataInputStream) {
            return ((FlowDataInputStream) d).readUTF0();
        }
        if (d instanceof DataInputStream) {
            return readUTFOf(d);
        }
        return d.readUTF();
    }

    /**
     * Replaces the static {@code DataInputStream.readUTF(DataInput)}: its two calls on {@code d}, then
     * the JDK's decoding.
     */
    public static String readUTFOf(DataInput d) throws IOException {
        if (d instanceof FlowDataInputStream) {
            return ((FlowDataInputStream) d).readUTF0();
        }
        if (d == null) {
            return DataInputStream.readUTF(d);
        }
        int utflen = readUnsignedShort(d);
        byte[] body = new byte[utflen];
        readFully(d, body, 0, utflen);
        return FlowDataInputStream.decodeUtf(utflen, body);
    }

    /** Replaces {@code writeBoolean(boolean)}. */
    public static void writeBoolean(DataOutput d, boolean v) throws IOException {
        if (d instanceof FlowDataOutputStream) {
            ((FlowDataOutputStream) d).writeByte0(v ? 1 : 0);
            return;
        }
        Object deferred = Awaits.deferDecoratedWrites(d);
        try {
            d.writeBoolean(v);
        } finally {
            Awaits.endDecoratedWrites(deferred);
        }
        Awaits.awaitDecoratedWrites(deferred);
    }

    /** Replaces {@code writeByte(int)}. */
    public static void writeByte(DataOutput d, int v) throws IOException {
        if (d instanceof FlowDataOutputStream) {
            ((FlowDataOutputStream) d).writeByte0(v);
            return;
        }
        Object deferred = Awaits.deferDecoratedWrites(d);
        try {
            d.writeByte(v);
        } finally {
            Awaits.endDecoratedWrites(deferred);
        }
        Awaits.awaitDecoratedWrites(deferred);
    }

    /** Replaces {@code writeShort(int)}. */
    public static void writeShort(DataOutput d, int v) throws IOException {
        if (d instanceof FlowDataOutputStream) {
            ((FlowDataOutputStream) d).writeShort0(v);
            return;
        }
        Object deferred = Awaits.deferDecoratedWrites(d);
        try {
            d.writeShort(v);
        } finally {
            Awaits.endDecoratedWrites(deferred);
        }
        Awaits.awaitDecoratedWrites(deferred);
    }

    /** Replaces {@code writeChar(int)}. */
    public static void writeChar(DataOutput d, int v) throws IOException {
        if (d instanceof FlowDataOutputStream) {
            ((FlowDataOutputStream) d).writeShort0(v);
            return;
        }
        Object deferred = Awaits.deferDecoratedWrites(d);
        try {
            d.writeChar(v);
        } finally {
            Awaits.endDecoratedWrites(deferred);
        }
        Awaits.awaitDecoratedWrites(deferred);
    }

    /** Replaces {@code writeInt(int)}. */
    public static void writeInt(DataOutput d, int v) throws IOException {
        if (d instanceof FlowDataOutputStream) {
            ((FlowDataOutputStream) d).writeInt0(v);
            return;
        }
        Object deferred = Awaits.deferDecoratedWrites(d);
        try {
            d.writeInt(v);
        } finally {
            Awaits.endDecoratedWrites(deferred);
        }
        Awaits.awaitDecoratedWrites(deferred);
    }

    /** Replaces {@code writeLong(long)}. */
    public static void writeLong(DataOutput d, long v) throws IOException {
        if (d instanceof FlowDataOutputStream) {
            ((FlowDataOutputStream) d).writeLong0(v);
            return;
        }
        Object deferred = Awaits.deferDecoratedWrites(d);
        try {
            d.writeLong(v);
        } finally {
            Awaits.endDecoratedWrites(deferred);
        }
        Awaits.awaitDecoratedWrites(deferred);
    }

    /** Replaces {@code writeFloat(float)}. */
    public static void writeFloat(DataOutput d, float v) throws IOException {
        if (d instanceof FlowDataOutputStream) {
            ((FlowDataOutputStream) d).writeInt0(Float.floatToIntBits(v));
            return;
        }
        Object deferred = Awaits.deferDecoratedWrites(d);
        try {
            d.writeFloat(v);
        } finally {
            Awaits.endDecoratedWrites(deferred);
        }
        Awaits.awaitDecoratedWrites(deferred);
    }

    /** Replaces {@code writeDouble(double)}. */
    public static void writeDouble(DataOutput d, double v) throws IOException {
        if (d instanceof FlowDataOutputStream) {
            ((FlowDataOutputStream) d).writeLong0(Double.doubleToLongBits(v));
            return;
        }
        Object deferred = Awaits.deferDecoratedWrites(d);
        try {
            d.writeDouble(v);
        } finally {
            Awaits.endDecoratedWrites(deferred);
        }
        Awaits.awaitDecoratedWrites(deferred);
    }

    /** Replaces {@code writeBytes(String)}. */
    public static void writeBytes(DataOutput d, String s) throws IOException {
        if (d instanceof FlowDataOutputStream && s != null) {
            ((FlowDataOutputStream) d).writeBytes0(s);
            return;
        }
        Object deferred = Awaits.deferDecoratedWrites(d);
        try {
            d.writeBytes(s);
        } finally {
            Awaits.endDecoratedWrites(deferred);
        }
        Awaits.awaitDecoratedWrites(deferred);
    }

    /** Replaces {@code writeChars(String)}. */
    public static void writeChars(DataOutput d, String s) throws IOException {
        if (d instanceof FlowDataOutputStream && s != null) {
            ((FlowDataOutputStream) d).writeChars0(s);
            return;
        }
        Object deferred = Awaits.deferDecoratedWrites(d);
        try {
            d.writeChars(s);
        } finally {
            Awaits.endDecoratedWrites(deferred);
        }
        Awaits.awaitDecoratedWrites(deferred);
    }

    /** Replaces {@code writeUTF(String)}. */
    public static void writeUTF(DataOutput d, String s) throws IOException {
        if (d instanceof FlowDataOutputStream && s != null) {
            ((FlowDataOutputStream) d).writeUTF0(s);
            return;
        }
        Object deferred = Awaits.deferDecoratedWrites(d);
        try {
            d.writeUTF(s);
        } finally {
            Awaits.endDecoratedWrites(deferred);
        }
        Awaits.awaitDecoratedWrites(deferred);
    }
}
