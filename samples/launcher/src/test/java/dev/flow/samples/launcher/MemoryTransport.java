package dev.flow.samples.launcher;

import dev.flow.LineTerminator;
import dev.flow.Transport;
import dev.flow.TransportConfig;
import dev.flow.spi.InputBuffer;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link Transport} over input given up front (then end of stream) that records each write and
 * flush, for tests of how a session batches its output. Not thread-safe.
 */
public final class MemoryTransport implements Transport {
    private final TransportConfig config;
    private final InputBuffer input;
    private final ByteArrayOutputStream output = new ByteArrayOutputStream();
    private final List<Integer> writes = new ArrayList<>();
    private int flushes;

    /** A transport whose input is {@code input}, then end of stream. */
    public MemoryTransport(TransportConfig config, byte[] input) {
        this.config = config;
        this.input = new InputBuffer(config.charset(), config.strictDecoding(), this);
        this.input.append(input, 0, input.length);
    }

    @Override
    public String readLine() throws java.io.IOException {
        return readLine(config.lineTerminator(), config.maxLineLength());
    }

    @Override
    public String readLine(LineTerminator terminator, int maxLength) throws java.io.IOException {
        return input.pollLine(terminator, maxLength, true);
    }

    @Override
    public int read(byte[] dst, int off, int len) throws java.io.IOException {
        return input.size() == 0 ? -1 : input.read(dst, off, len);
    }

    @Override
    public int available() {
        return input.size();
    }

    @Override
    public void writeLine(String line) throws java.io.IOException {
        write((line + config.lineSeparator()).getBytes(config.charset()));
    }

    @Override
    public void write(byte[] src, int off, int len) {
        output.write(src, off, len);
        writes.add(len);
    }

    @Override
    public void flush() {
        flushes++;
    }

    @Override
    public void close() {
    }

    @Override
    public SocketAddress remoteAddress() {
        return InetSocketAddress.createUnresolved("memory", 0);
    }

    @Override
    public TransportConfig config() {
        return config;
    }

    /** Everything written, as ISO-8859-1 text. */
    public String output() {
        return output.toString(java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /** The length of each {@code write} call, in order. */
    public List<Integer> writes() {
        return writes;
    }

    /** The number of {@code flush} calls. */
    public int flushes() {
        return flushes;
    }
}
