package flowtest.support;

import dev.flow.LineTerminator;
import dev.flow.Transport;
import dev.flow.TransportConfig;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * A {@link Transport} over bytes already in memory: every read finds its input buffered and never
 * waits; writes collect in memory. Used by one thread or flow at a time.
 */
public final class MemoryTransport implements Transport {

    private final ByteArrayInputStream in;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    public MemoryTransport(byte[] input) {
        this.in = new ByteArrayInputStream(input.clone());
    }

    @Override
    public String readLine() {
        return readLine(LineTerminator.LF_OR_CRLF, Integer.MAX_VALUE);
    }

    @Override
    public String readLine(LineTerminator terminator, int maxLength) {
        StringBuilder b = new StringBuilder();
        for (int c = in.read(); c >= 0; c = in.read()) {
            if (c == '\n') {
                return b.toString();
            }
            b.append((char) c);
        }
        return b.length() == 0 ? null : b.toString();
    }

    @Override
    public int read(byte[] dst, int off, int len) {
        return in.read(dst, off, len);
    }

    @Override
    public int available() {
        return in.available();
    }

    @Override
    public void writeLine(String line) {
        out.writeBytes((line + "\n").getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void write(byte[] src, int off, int len) {
        out.write(src, off, len);
    }

    @Override
    public void flush() {
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

    /** The bytes written so far, as text. */
    public String written() {
        return out.toString(StandardCharsets.ISO_8859_1);
    }
}
