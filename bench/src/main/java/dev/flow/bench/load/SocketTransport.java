package dev.flow.bench.load;

import dev.flow.Transport;
import dev.flow.TransportConfig;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A blocking {@link Transport} over a plain {@link Socket}, for the thread-per-connection modes
 * (platform and virtual threads). UTF-8 lines ending in {@code \n} (a preceding {@code \r} is
 * dropped), at most {@link TransportConfig#maxLineLength()} bytes; {@link #writeLine} writes and
 * flushes, like {@code MinaTransport}. Not thread-safe: one connection, one thread.
 */
final class SocketTransport implements Transport {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final TransportConfig config;
    private final byte[] buf = new byte[8192];
    private int pos;
    private int lim;
    private byte[] line = new byte[256];

    SocketTransport(Socket socket, TransportConfig config) throws IOException {
        this.socket = socket;
        this.config = config;
        socket.setTcpNoDelay(true);
        this.in = socket.getInputStream();
        this.out = new BufferedOutputStream(socket.getOutputStream(), 8192);
    }

    @Override
    public String readLine() throws IOException {
        int n = 0;
        while (true) {
            if (pos == lim) {
                int r = in.read(buf, 0, buf.length);
                if (r < 0) {
                    if (n == 0) {
                        return null;
                    }
                    throw new IOException("end of stream inside a line of " + n + " bytes");
                }
                pos = 0;
                lim = r;
            }
            while (pos < lim) {
                byte b = buf[pos++];
                if (b == '\n') {
                    int len = n > 0 && line[n - 1] == '\r' ? n - 1 : n;
                    return new String(line, 0, len, StandardCharsets.UTF_8);
                }
                if (n == config.maxLineLength()) {
                    throw new IOException("line length: more than " + n + " bytes (limit: maxLineLength = "
                            + config.maxLineLength() + ")");
                }
                if (n == line.length) {
                    line = Arrays.copyOf(line, Math.min(config.maxLineLength(), n * 2));
                }
                line[n++] = b;
            }
        }
    }

    @Override
    public int read(byte[] dst, int off, int len) throws IOException {
        if (pos < lim) {
            int k = Math.min(len, lim - pos);
            System.arraycopy(buf, pos, dst, off, k);
            pos += k;
            return k;
        }
        return in.read(dst, off, len);
    }

    @Override
    public void writeLine(String s) throws IOException {
        out.write(s.getBytes(StandardCharsets.UTF_8));
        out.write('\n');
        out.flush();
    }

    @Override
    public void write(byte[] src, int off, int len) throws IOException {
        out.write(src, off, len);
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    @Override
    public SocketAddress remoteAddress() {
        return socket.getRemoteSocketAddress();
    }

    @Override
    public TransportConfig config() {
        return config;
    }
}
