package dev.flow;

import dev.flow.internal.Awaits;
import dev.flow.internal.DotBodyScanner;
import dev.flow.internal.LineScanner;
import dev.flow.internal.WriteWatchdog;
import dev.flow.spi.InputBuffer;
import dev.flow.spi.ReadDeadlines;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The blocking {@link Transport} over a plain {@link Socket} returned by {@link
 * Transport#ofSocket(Socket, TransportConfig)}: one {@link InputBuffer} (terminators, limits in
 * characters, strict decoding), read, line, idle and request timeouts and read deadlines applied to
 * the socket's reads, writes buffered (8 KiB) until {@link #flush()} or until a read has to wait for
 * the socket. A request starts when a read sees its first byte (buffered when the read is called, or
 * the first to arrive while it waits) and ends at {@link #endRequest()} or the next write, as on
 * Flow's MINA transport. A write to the socket blocked past the write timeout closes the socket and
 * fails ({@link TimedOutput}). Not thread-safe: one connection, one thread at a time.
 */
final class SocketTransport implements Transport {

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final TransportConfig config;
    private final InputBuffer buffer;
    private final ReadDeadlines deadlines = new ReadDeadlines();
    private final byte[] chunk = new byte[8192];
    private final byte[] separator;
    private boolean eof;
    /** Bytes appended to the buffer since the transport was created. */
    private long received;
    /** Whether a request has started (a read saw its first byte) and not ended. */
    private boolean inRequest;
    /** When the running request started ({@code System.nanoTime()}). */
    private long requestStart;
    /** {@link #received} before the running request's first byte. */
    private long requestBase;
    /** The socket's read timeout as last set here, in ms ({@code -1}: not set yet). */
    private int soTimeout = -1;

    SocketTransport(Socket socket, TransportConfig config) throws IOException {
        this.socket = Objects.requireNonNull(socket, "socket");
        this.config = Objects.requireNonNull(config, "config");
        if (!socket.isConnected() || socket.isClosed()) {
            throw new IOException("socket: " + socket + " (expected: connected and open)");
        }
        socket.setTcpNoDelay(true);
        this.in = socket.getInputStream();
        this.out = new BufferedOutputStream(new TimedOutput(socket.getOutputStream()), 8192);
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
        startRequestIfInput();
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
    public Line readLineBytes(LineTerminator terminator, int maxBytes) throws IOException {
        LineScanner scanner = new LineScanner(terminator, maxBytes);
        checkOpen();
        startRequestIfInput();
        long lineTimeout = config.lineTimeout().toNanos();
        long deadline = 0;
        for (;;) {
            buffer.scan(scanner, eof);
            if (scanner.line() != null || eof) {
                return scanner.line();
            }
            if (lineTimeout > 0 && deadline == 0 && buffer.size() > 0) {
                deadline = System.nanoTime() + lineTimeout;
            }
            fill(deadline);
        }
    }

    @Override
    public long readDotBody(OutputStream sink, long maxBytes) throws IOException {
        Objects.requireNonNull(sink, "sink");
        DotBodyScanner scanner = new DotBodyScanner(maxBytes);
        checkOpen();
        startRequestIfInput();
        for (;;) {
            int n = buffer.scan(scanner, eof);
            scanner.drainTo(sink);
            if (scanner.done()) {
                return Awaits.dotBodyResult(scanner);
            }
            if (n == 0) {
                if (eof) {
                    throw Awaits.dotBodyEnded(this, scanner);
                }
                fill(0);
            }
        }
    }

    @Override
    public int read(byte[] dst, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, dst.length);
        if (len == 0) {
            return 0;
        }
        checkOpen();
        startRequestIfInput();
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

    @Override
    public Deadline deadline(Duration timeout) {
        return deadlines.open(timeout);
    }

    /** Ends the request being read: its deadline stops, the next starts at the next byte a read sees. */
    @Override
    public void endRequest() {
        inRequest = false;
    }

    /** Starts a request if none runs and input is buffered. */
    private void startRequestIfInput() {
        if (!inRequest && buffer.size() > 0) {
            inRequest = true;
            requestStart = System.nanoTime();
            requestBase = received - buffer.size();
        }
    }

    /**
     * The time left before the running request's deadline: {@link TransportConfig#requestTimeout()}
     * after its first byte, plus one second per {@link TransportConfig#minRequestRate()} bytes received
     * since; {@link Long#MAX_VALUE} between requests or without a request timeout.
     */
    private long requestNanosLeft() {
        long timeout = config.requestTimeout().toNanos();
        if (!inRequest || timeout == 0) {
            return Long.MAX_VALUE;
        }
        long rate = config.minRequestRate();
        double allowance = timeout + (rate == 0 ? 0 : (received - requestBase) * 1e9 / rate);
        double left = allowance - (System.nanoTime() - requestStart);
        return left >= (double) (1L << 62) ? Long.MAX_VALUE : (long) left;
    }

    private SocketTimeoutException requestTimedOut() {
        long age = (System.nanoTime() - requestStart) / 1_000_000;
        return new SocketTimeoutException("request from " + remoteAddress() + " not complete after " + age
                + " ms, " + (received - requestBase) + " bytes received (requestTimeout "
                + config.requestTimeout().toMillis() + " ms, minRequestRate " + config.minRequestRate() + " bytes/s)");
    }

    private void checkOpen() throws IOException {
        if (socket.isClosed()) {
            throw new IOException("transport to " + remoteAddress() + " is closed");
        }
    }

    /**
     * Reads once from the socket into the buffer, flushing pending output first. A read of bytes already
     * received does not wait, so no timeout can fail it; an expired line, read or request deadline fails
     * the read only if nothing has been received (asked of the socket only then: one system call fewer
     * per read).
     */
    private void fill(long lineDeadline) throws IOException {
        out.flush();
        startRequestIfInput();
        long readTimeout = config.readTimeout().toMillis();
        long idle = config.idleTimeout().toMillis();
        long wait = readTimeout;
        // What limits this wait: 0 the read timeout (or nothing), 1 idle, 2 the line, 3 a deadline,
        // 4 the request's deadline.
        int limit = 0;
        if (buffer.size() == 0 && idle > 0 && (wait == 0 || idle < wait)) {
            wait = idle;
            limit = 1;
        }
        if (lineDeadline != 0) {
            long left = TimeUnit.NANOSECONDS.toMillis(lineDeadline - System.nanoTime());
            if (left <= 0) {
                if (readReceived()) {
                    return;
                }
                throw lineTimedOut();
            }
            if (wait == 0 || left < wait) {
                wait = left;
                limit = 2;
            }
        }
        long deadlineLeft = deadlines.nanosLeft();
        if (deadlineLeft != Long.MAX_VALUE) {
            if (deadlineLeft <= 0) {
                if (readReceived()) {
                    return;
                }
                throw deadlines.exceeded(remoteAddress());
            }
            // Rounded up: a socket timeout that fires before the deadline would fail the read early.
            long left = (deadlineLeft + 999_999) / 1_000_000;
            if (wait == 0 || left < wait) {
                wait = left;
                limit = 3;
            }
        }
        long requestLeft = requestNanosLeft();
        if (requestLeft != Long.MAX_VALUE) {
            if (requestLeft <= 0) {
                if (readReceived()) {
                    return;
                }
                throw requestTimedOut();
            }
            long left = (requestLeft + 999_999) / 1_000_000;
            if (wait == 0 || left < wait) {
                wait = left;
                limit = 4;
            }
        }
        int timeout = (int) Math.min(Integer.MAX_VALUE, wait);
        if (timeout != soTimeout) {
            socket.setSoTimeout(timeout);
            soTimeout = timeout;
        }
        int r;
        try {
            r = in.read(chunk, 0, chunk.length);
        } catch (SocketTimeoutException e) {
            switch (limit) {
                case 1:
                    socket.close();
                    throw new SocketTimeoutException("connection idle for " + idle + " ms (idleTimeout)");
                case 2:
                    throw lineTimedOut();
                case 3:
                    throw deadlines.exceeded(remoteAddress());
                case 4:
                    throw requestTimedOut();
                default:
                    throw new SocketTimeoutException("read from " + remoteAddress() + " timed out after "
                            + readTimeout + " ms (readTimeout)");
            }
        }
        append(r);
    }

    /** Reads the bytes already received, if any, without waiting; returns whether it read (or saw the end). */
    private boolean readReceived() throws IOException {
        if (in.available() <= 0) {
            return false;
        }
        append(in.read(chunk, 0, chunk.length));
        return true;
    }

    /**
     * Appends {@code r} bytes of the chunk, or marks the end of stream if {@code r < 0}; the first byte
     * of a request that arrives while a read waits starts it.
     */
    private void append(int r) {
        if (r < 0) {
            eof = true;
        } else {
            buffer.append(chunk, 0, r);
            received += r;
            startRequestIfInput();
        }
    }

    private SocketTimeoutException lineTimedOut() {
        return new SocketTimeoutException("line from " + remoteAddress() + " not complete after "
                + config.lineTimeout().toMillis() + " ms (lineTimeout)");
    }

    @Override
    public void writeLine(String s) throws IOException {
        checkOpen();
        inRequest = false;
        out.write(s.getBytes(config.charset()));
        out.write(separator);
    }

    @Override
    public void write(byte[] src, int off, int len) throws IOException {
        checkOpen();
        inRequest = false;
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

    /**
     * The socket's output with the write timeout: a write to the socket still blocked when {@link
     * TransportConfig#writeTimeout()} expires has the socket closed under it by a {@link WriteWatchdog}
     * and fails with a {@link SocketTimeoutException}; the transport is closed from then on.
     */
    private final class TimedOutput extends OutputStream {
        private final OutputStream raw;

        TimedOutput(OutputStream raw) {
            this.raw = raw;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            long timeout = config.writeTimeout().toNanos();
            if (timeout <= 0) {
                raw.write(b, off, len);
                return;
            }
            WriteWatchdog.Watch watch = WriteWatchdog.watch(socket, timeout);
            try {
                raw.write(b, off, len);
            } catch (IOException e) {
                watch.cancel();
                throw watch.expired() ? writeTimedOut(len, e) : e;
            }
            watch.cancel();
            if (watch.expired()) {
                // written, but the watch closed the socket meanwhile: nothing more can go out
                throw writeTimedOut(len, null);
            }
        }

        @Override
        public void flush() throws IOException {
            raw.flush();
        }
    }

    private SocketTimeoutException writeTimedOut(int len, IOException cause) {
        SocketTimeoutException e = new SocketTimeoutException("write of " + len + " bytes to " + remoteAddress()
                + " timed out after " + config.writeTimeout().toMillis() + " ms (writeTimeout); connection closed");
        if (cause != null) {
            e.initCause(cause);
        }
        return e;
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
