package dev.flow.bench.load;

import dev.flow.LineTerminator;
import dev.flow.Transport;
import dev.flow.TransportConfig;
import dev.flow.spi.InputBuffer;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A blocking {@link Transport} over a plain {@link Socket}, for the thread-per-connection modes
 * (platform and virtual threads), with the input semantics of every Flow transport (one {@link
 * InputBuffer}: line terminators, limits in characters, strict decoding, read and line timeouts).
 *
 * <p>Writes are buffered (8 KiB) and {@link #flush()} hands them to the socket. So that code which
 * never flushes still answers, buffered output is also flushed before a read has to wait for the
 * socket (replies to pipelined requests go out together). The idle timeout bounds a read that
 * waits with nothing buffered; the write timeout is not supported by blocking sockets. Not
 * thread-safe: one connection, one thread.
 */
final class SocketTransport implements Transport {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final TransportConfig config;
    private final InputBuffer buffer;
    private final byte[] chunk = new byte[8192];
    private final byte[] separator;
    private boolean eof;

    SocketTransport(Socket socket, TransportConfig config) throws IOException {
        this.socket = socket;
        this.config = Objects.requireNonNull(config, "config");
        socket.setTcpNoDelay(true);
        this.in = socket.getInputStream();
        this.out = new BufferedOutputStream(socket.getOutputStream(), 8192);
        this.buffer = new InputBuffer(config.charset(), config.strictDecoding(), this);
        this.separator = config.lineSeparator().getBytes(config.charset());
    }

    @Override
    public String readLine() throws IOException {
        return readLine(config.lineTerminator(), config.maxLineLength());
    }

    @Override
    public String readLine(LineTerminator terminator, int maxLength) throws IOException {
        checkOpen();
        long lineTimeout = config.lineTimeout().toNanos();
        long deadline = 0;
        for (;;) {
            String line = buffer.pollLine(terminator, maxLength, eof);
            if (line != null || eof) {
                return line;
            }
            if (lineTimeout > 0 && deadline == 0 && buffer.size() > 0) {
                deadline = System.nanoTime() + lineTimeout;
            }
            fill(deadline);
        }
    }

    @Override
    public int read(byte[] dst, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, dst.length);
        if (len == 0) {
            return 0;
        }
        checkOpen();
        while (buffer.size() == 0 && !buffer.failed()) {
            if (eof) {
                return -1;
            }
            fill(0);
        }
        return buffer.read(dst, off, len);
    }

    /** The bytes buffered here plus those the socket can deliver without blocking. */
    @Override
    public int available() {
        int inSocket = 0;
        if (!socket.isClosed() && !eof) {
            try {
                inSocket = in.available();
            } catch (IOException e) {
                inSocket = 0; // a failed socket has nothing more to offer; the next read reports why
            }
        }
        return (int) Math.min(Integer.MAX_VALUE, (long) buffer.size() + inSocket);
    }

    private void checkOpen() throws IOException {
        if (socket.isClosed()) {
            throw new IOException("transport to " + remoteAddress() + " is closed");
        }
    }

    /** Reads once from the socket into the buffer, flushing pending output first. */
    private void fill(long lineDeadline) throws IOException {
        out.flush();
        long readTimeout = config.readTimeout().toMillis();
        long idle = config.idleTimeout().toMillis();
        long wait = readTimeout;
        if (buffer.size() == 0 && idle > 0 && (wait == 0 || idle < wait)) {
            wait = idle;
        }
        boolean lineLimited = false;
        if (lineDeadline != 0) {
            long left = TimeUnit.NANOSECONDS.toMillis(lineDeadline - System.nanoTime());
            if (left <= 0) {
                throw lineTimedOut();
            }
            if (wait == 0 || left < wait) {
                wait = left;
                lineLimited = true;
            }
        }
        socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, wait));
        int r;
        try {
            r = in.read(chunk, 0, chunk.length);
        } catch (SocketTimeoutException e) {
            if (lineLimited) {
                throw lineTimedOut();
            }
            if (wait != readTimeout) {
                socket.close();
                throw new SocketTimeoutException("connection idle for " + idle + " ms (idleTimeout)");
            }
            throw new SocketTimeoutException("read from " + remoteAddress() + " timed out after "
                    + readTimeout + " ms (readTimeout)");
        }
        if (r < 0) {
            eof = true;
        } else {
            buffer.append(chunk, 0, r);
        }
    }

    private SocketTimeoutException lineTimedOut() {
        return new SocketTimeoutException("line from " + remoteAddress() + " not complete after "
                + config.lineTimeout().toMillis() + " ms (lineTimeout)");
    }

    @Override
    public void writeLine(String s) throws IOException {
        checkOpen();
        out.write(s.getBytes(config.charset()));
        out.write(separator);
    }

    @Override
    public void write(byte[] src, int off, int len) throws IOException {
        checkOpen();
        out.write(src, off, len);
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    /** Flushes buffered output (best effort), then closes the socket. */
    @Override
    public void close() throws IOException {
        if (socket.isClosed()) {
            return;
        }
        try {
            out.flush();
        } catch (IOException e) {
            // The peer is gone; closing is all that is left to do.
        } finally {
            socket.close();
        }
    }

    @Override
    public SocketAddress remoteAddress() {
        return socket.getRemoteSocketAddress();
    }

    @Override
    public TransportConfig config() {
        return config;
    }

    @Override
    public String toString() {
        return "SocketTransport[" + remoteAddress() + "]";
    }
}
