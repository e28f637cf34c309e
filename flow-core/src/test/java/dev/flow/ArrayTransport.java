package dev.flow;

import java.net.SocketAddress;

/** A transport that reads from a byte array, at most {@code chunk} bytes per read, then ends. */
final class ArrayTransport implements Transport {
    private final byte[] data;
    private final int chunk;
    private int pos;
    private int flushes;

    ArrayTransport(byte[] data, int chunk) {
        this.data = data;
        this.chunk = chunk;
    }

    @Override
    public int read(byte[] dst, int off, int len) {
        if (pos == data.length) {
            return -1;
        }
        int n = Math.min(Math.min(len, chunk), data.length - pos);
        System.arraycopy(data, pos, dst, off, n);
        pos += n;
        return n;
    }

    @Override
    public int available() {
        return Math.min(chunk, data.length - pos);
    }

    @Override
    public String readLine() {
        throw new UnsupportedOperationException();
    }

    @Override
    public String readLine(LineTerminator terminator, int maxLength) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void writeLine(String line) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void write(byte[] src, int off, int len) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void flush() {
        flushes++;
    }

    /** The number of {@code flush} calls. */
    int flushes() {
        return flushes;
    }

    @Override
    public void close() {
    }

    @Override
    public SocketAddress remoteAddress() {
        return null;
    }

    @Override
    public TransportConfig config() {
        return TransportConfig.DEFAULT;
    }
}
