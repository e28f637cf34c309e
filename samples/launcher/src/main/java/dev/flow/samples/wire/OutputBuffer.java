package dev.flow.samples.wire;

import dev.flow.Transport;
import java.io.IOException;
import java.util.Arrays;

/**
 * A growable byte buffer in which a protocol session assembles its replies, so that each reply (or
 * a batch of replies to pipelined requests) goes out in one {@code Transport.write}, flushed once.
 *
 * <p>{@link #sendWhenDry} batches replies to pipelined requests: the batch is written only when no
 * further request is already buffered ({@link Transport#available()} is 0) or it has grown past a
 * bound, and flushed with Flow's public rule, {@link Transport#flushIfNoInput()}. Its {@code Transport} calls are suspension points when this class is loaded through the
 * {@code ContinuationClassLoader} with the protocol code (its package is included by the samples'
 * launcher); loaded normally they block.
 *
 * <p>Not thread-safe: one per session.
 */
public final class OutputBuffer {

    private byte[] buf;
    private int size;

    /** Creates an empty buffer with room for {@code capacity} bytes before it grows. */
    public OutputBuffer(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity: " + capacity + " (expected: > 0)");
        }
        this.buf = new byte[capacity];
    }

    /** Appends the characters of {@code s}, each as one byte (ISO-8859-1: headers, RESP lines). */
    public OutputBuffer ascii(CharSequence s) {
        int n = s.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            buf[size++] = (byte) s.charAt(i);
        }
        return this;
    }

    /** Appends {@code n} in decimal. */
    public OutputBuffer decimal(long n) {
        return ascii(Long.toString(n));
    }

    /** Appends {@code "\r\n"}. */
    public OutputBuffer crlf() {
        ensure(2);
        buf[size++] = '\r';
        buf[size++] = '\n';
        return this;
    }

    /** Appends {@code b}. */
    public OutputBuffer bytes(byte[] b) {
        return bytes(b, 0, b.length);
    }

    /** Appends {@code len} bytes of {@code b} from {@code off}. */
    public OutputBuffer bytes(byte[] b, int off, int len) {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        ensure(len);
        System.arraycopy(b, off, buf, size, len);
        size += len;
        return this;
    }

    /** A copy of the bytes appended since the last reset. */
    public byte[] toByteArray() {
        return Arrays.copyOf(buf, size);
    }

    /** The backing array; valid up to {@link #size()} until the next append or reset. */
    public byte[] array() {
        return buf;
    }

    /** The number of bytes appended since the last reset. */
    public int size() {
        return size;
    }

    /**
     * Reply batching: while further input is buffered on {@code transport} and fewer than {@code
     * batchBytes} bytes are appended, keeps them for the next reply; otherwise writes them in one write
     * and flushes by {@link Transport#flushIfNoInput()} (only when no input is buffered).
     */
    public void sendWhenDry(Transport transport, int batchBytes) throws IOException {
        if (size < batchBytes && transport.available() != 0) {
            return;
        }
        write(transport);
        transport.flushIfNoInput();
    }

    /** Writes the bytes appended so far (if any) in one write, empties the buffer and flushes {@code transport}. */
    public void send(Transport transport) throws IOException {
        write(transport);
        transport.flush();
    }

    private void write(Transport transport) throws IOException {
        if (size > 0) {
            transport.write(buf, 0, size);
            reset();
        }
    }

    /** Empties the buffer, keeping its capacity up to 64 KiB. */
    public void reset() {
        size = 0;
        if (buf.length > 64 * 1024) {
            buf = new byte[64 * 1024];
        }
    }

    private void ensure(int n) {
        if (buf.length - size < n) {
            long want = Math.max((long) size + n, (long) buf.length * 2);
            if (want > Integer.MAX_VALUE - 8) {
                throw new OutOfMemoryError("output buffer: " + want + " bytes (expected: < 2 GiB)");
            }
            buf = Arrays.copyOf(buf, (int) want);
        }
    }
}
