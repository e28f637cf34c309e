package dev.flow.mina;

import dev.flow.LineTooLongException;
import dev.flow.TransportConfig;
import dev.flow.internal.Waits;
import dev.flow.spi.AsyncTransport;
import dev.flow.spi.Awaitable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.future.WriteFuture;
import org.apache.mina.core.session.AttributeKey;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.core.write.WriteException;
import org.apache.mina.transport.socket.nio.NioSession;

/**
 * A {@link dev.flow.Transport} over a MINA {@link IoSession}, created by {@link FlowServer} and
 * {@link FlowConnector} for each session they open.
 *
 * <p><b>Input.</b> Raw {@link IoBuffer}s delivered by MINA are copied into one inbound buffer; lines
 * are decoded from it with the configured charset (which must be ASCII-compatible) and end at
 * {@code \n} or {@code \r\n}. A line longer than {@link TransportConfig#maxLineLength()} characters
 * fails with {@link LineTooLongException} as soon as the buffered part exceeds the limit; after that
 * every read fails and the session should be closed. Over TCP, reading from the socket is suspended
 * while the unread input exceeds a high-water mark of at least 64 KiB, so a peer cannot make the
 * buffer grow without bound. When the peer shuts its output down the input ends but the session stays
 * open for writing.
 *
 * <p><b>Output.</b> Each write is a {@code session.write(IoBuffer)}. A write is accepted at once
 * while less than 64 KiB are queued (write-behind, like a socket's send buffer); above that the
 * writer waits until its bytes are written. {@link #flush()} waits for the last write, and a failed
 * write is rethrown as an {@link IOException} by the next write or flush. {@link #close()} lets the
 * accepted writes go out, then closes the session.
 *
 * <p><b>Threads.</b> The transport is used by one flow or thread at a time. The blocking methods wait
 * like Flow's own loops over the {@link AsyncTransport} primitives, with the read and write timeouts
 * of the configuration, and must never be called on a MINA I/O processor thread. The MINA callbacks
 * only copy data and complete awaitables; they never block and never run flow code. Outside a flow
 * the blocking methods block the calling thread; in code loaded through the {@code
 * ContinuationClassLoader} they are suspension points.
 */
public final class MinaTransport implements AsyncTransport {

    /** The session attribute holding the transport. */
    static final AttributeKey TRANSPORT_KEY = new AttributeKey(MinaTransport.class, "transport");

    private static final int INITIAL_CAPACITY = 512;
    private static final int SHRINK_ABOVE = 64 * 1024;
    private static final int MIN_HIGH_WATER = 64 * 1024;

    private final IoSession session;
    private final TransportConfig config;
    private final Charset charset;
    private final int maxLineLength;
    private final long readTimeoutNanos;
    private final long writeTimeoutNanos;
    private final boolean trafficControl;
    private final int highWater;
    private final int lowWater;

    private final Object lock = new Object();
    // Guarded by lock.
    private byte[] buf = new byte[INITIAL_CAPACITY];
    private int start;
    private int end;
    /** Where the search for the next '\n' resumes; start <= scan <= end. */
    private int scan;
    /** Input, end of stream or a failure arrived since the last poll. */
    private boolean arrived;
    private boolean eof;
    private boolean closed;
    private IOException failure;
    private long tooLongLength = -1;
    private Signal waiter;
    private CharsetDecoder counter;
    /** Whether reading is (to be) suspended; read and written under lock, applied by adjustTraffic. */
    private boolean readSuspended;

    private final AtomicInteger trafficWip = new AtomicInteger();
    private volatile IoFutureAwaitable lastWrite;
    /** Queued bytes above which a write waits for its completion. */
    static final int WRITE_HIGH_WATER = 64 * 1024;

    MinaTransport(IoSession session, TransportConfig config) {
        this.session = Objects.requireNonNull(session, "session");
        this.config = Objects.requireNonNull(config, "config");
        this.charset = checkCharset(config.charset());
        this.maxLineLength = config.maxLineLength();
        this.readTimeoutNanos = nanos(config.readTimeout());
        this.writeTimeoutNanos = nanos(config.writeTimeout());
        this.trafficControl = session instanceof NioSession;
        float bytesPerChar = Math.max(1f, charset.newEncoder().maxBytesPerChar());
        long detect = (long) Math.ceil(bytesPerChar) * (maxLineLength + 1L) + 8;
        this.highWater = (int) Math.min(Integer.MAX_VALUE / 2, Math.max(MIN_HIGH_WATER, detect));
        this.lowWater = highWater / 2;
    }

    /**
     * Returns the transport attached to {@code session} by a {@link FlowServer} or {@link
     * FlowConnector}, or {@code null} if there is none. Thread-safe.
     */
    public static MinaTransport of(IoSession session) {
        Objects.requireNonNull(session, "session");
        return (MinaTransport) session.getAttribute(TRANSPORT_KEY);
    }

    /** Creates a transport for {@code session} and attaches it, unless one is attached already. */
    static MinaTransport attach(IoSession session, TransportConfig config) {
        MinaTransport t = new MinaTransport(session, config);
        Object prev = session.setAttributeIfAbsent(TRANSPORT_KEY, t);
        return prev != null ? (MinaTransport) prev : t;
    }

    /**
     * Checks that lines can be split on the byte {@code 0x0A} in {@code charset}.
     *
     * @throws IllegalArgumentException if the charset is not ASCII-compatible (UTF-16, UTF-32...)
     */
    static Charset checkCharset(Charset charset) {
        Objects.requireNonNull(charset, "charset");
        if (!charset.canEncode() || !Arrays.equals("\n".getBytes(charset), new byte[] {'\n'})
                || !Arrays.equals("\r".getBytes(charset), new byte[] {'\r'})) {
            throw new IllegalArgumentException("charset: " + charset.name()
                    + " (expected: an ASCII-compatible charset that encodes \\n as the single byte 0x0A)");
        }
        return charset;
    }

    /** The MINA session this transport reads and writes. */
    public IoSession session() {
        return session;
    }

    /** The configuration given when the session opened. Thread-safe. */
    @Override
    public TransportConfig config() {
        return config;
    }

    /** The session's remote address. Thread-safe. */
    @Override
    public SocketAddress remoteAddress() {
        return session.getRemoteAddress();
    }

    // ---------------------------------------------------------------- blocking API

    /**
     * Reads one line, waiting up to the read timeout each time no complete line is buffered.
     *
     * <p>Blocks the calling thread; a suspension point in instrumented code.
     */
    @Override
    public String readLine() throws IOException {
        for (;;) {
            String line = pollLine();
            if (line != null || isInputClosed()) {
                return line;
            }
            awaitInput();
        }
    }

    /**
     * Reads at least one and up to {@code len} bytes, waiting up to the read timeout each time none is
     * buffered.
     *
     * <p>Blocks the calling thread; a suspension point in instrumented code.
     */
    @Override
    public int read(byte[] dst, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, dst.length);
        if (len == 0) {
            return 0;
        }
        for (;;) {
            int n = pollRead(dst, off, len);
            if (n != 0) {
                return n;
            }
            awaitInput();
        }
    }

    /**
     * Writes {@code line} and {@code \n} in the configured charset and waits, up to the write timeout,
     * until MINA has written them.
     *
     * <p>Blocks the calling thread; a suspension point in instrumented code.
     */
    @Override
    public void writeLine(String line) throws IOException {
        awaitWrite(writeLineAsync(line));
    }

    /**
     * Writes the bytes and waits, up to the write timeout, until MINA has written them.
     *
     * <p>Blocks the calling thread; a suspension point in instrumented code.
     */
    @Override
    public void write(byte[] src, int off, int len) throws IOException {
        awaitWrite(writeAsync(src, off, len));
    }

    /**
     * Waits, up to the write timeout, until every write queued so far has been written.
     *
     * <p>Blocks the calling thread; a suspension point in instrumented code.
     */
    @Override
    public void flush() throws IOException {
        awaitWrite(flushAsync());
    }

    /**
     * Closes the transport: unread input is discarded and reads and writes fail from now on; the
     * session closes once the writes already accepted are written (MINA {@code closeOnFlush()}), or
     * at once if there are none. A second call does nothing. Never blocks; may be called from any
     * thread.
     */
    @Override
    public void close() {
        Signal s;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            discardInput();
            s = takeWaiter();
        }
        if (s != null) {
            s.complete();
        }
        IoFutureAwaitable last = lastWrite;
        if (last != null && !last.isDone()) {
            session.closeOnFlush();
        } else {
            session.closeNow();
        }
    }

    private void awaitInput() throws IOException {
        if (!Waits.block(inputReady(), readTimeoutNanos)) {
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedIOException("interrupted while waiting for input from " + remoteAddress());
            }
            throw new SocketTimeoutException("read timed out after " + config.readTimeout().toMillis()
                    + " ms (readTimeout)");
        }
    }

    private void awaitWrite(Awaitable write) throws IOException {
        if (!Waits.block(write, writeTimeoutNanos)) {
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedIOException("interrupted while writing to " + remoteAddress());
            }
            throw new SocketTimeoutException("write timed out after " + config.writeTimeout().toMillis()
                    + " ms (writeTimeout)");
        }
        checkWrite(write);
    }

    // ---------------------------------------------------------------- non-blocking primitives

    /**
     * Returns the next complete line if one is buffered, else {@code null}; never waits. Thread-safe,
     * but meant for the one flow using the transport.
     */
    @Override
    public String pollLine() throws IOException {
        String line;
        boolean adjust;
        synchronized (lock) {
            arrived = false;
            checkReadable();
            int nl = indexOfNewline();
            if (nl >= 0) {
                int lineEnd = nl > start && buf[nl - 1] == '\r' ? nl - 1 : nl;
                line = new String(buf, start, lineEnd - start, charset);
                consume(nl + 1);
                if (line.length() > maxLineLength) {
                    throw tooLong(line.length());
                }
            } else {
                if (failure != null) {
                    throw failed();
                }
                int n = end - start;
                if (eof) {
                    if (n == 0) {
                        return null;
                    }
                    line = new String(buf, start, n, charset);
                    consume(end);
                    if (line.length() > maxLineLength) {
                        throw tooLong(line.length());
                    }
                } else {
                    int content = n > 0 && buf[end - 1] == '\r' ? n - 1 : n;
                    if (content > maxLineLength) {
                        int chars = countChars(start, content);
                        if (chars > maxLineLength) {
                            throw tooLong(chars);
                        }
                    }
                    return null;
                }
            }
            adjust = needsResume();
        }
        if (adjust) {
            adjustTraffic();
        }
        return line;
    }

    /**
     * Copies up to {@code len} buffered bytes; returns 0 if none is buffered and -1 at end of stream;
     * never waits.
     */
    @Override
    public int pollRead(byte[] dst, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, dst.length);
        int n;
        boolean adjust;
        synchronized (lock) {
            arrived = false;
            checkReadable();
            n = Math.min(len, end - start);
            if (n == 0) {
                if (failure != null) {
                    throw failed();
                }
                return eof && len > 0 ? -1 : 0;
            }
            System.arraycopy(buf, start, dst, off, n);
            consume(start + n);
            adjust = needsResume();
        }
        if (adjust) {
            adjustTraffic();
        }
        return n;
    }

    /**
     * Returns whether the input has ended: the peer closed or shut down its output, the connection
     * failed, a line was too long, or this transport was closed.
     */
    @Override
    public boolean isInputClosed() {
        synchronized (lock) {
            return eof || closed || failure != null || tooLongLength >= 0;
        }
    }

    /**
     * Returns an awaitable that is already done if input, end of stream or a failure arrived since
     * the last poll, and otherwise completes, on a MINA thread, when the next one arrives. Each call
     * replaces the previous pending awaitable, which completes at once (a spurious wake-up for a wait
     * that has already timed out), so only one reader may wait at a time.
     */
    @Override
    public Awaitable inputReady() {
        Signal s;
        Signal stale;
        synchronized (lock) {
            if (arrived || eof || closed || failure != null || tooLongLength >= 0) {
                return Signal.DONE;
            }
            stale = waiter;
            s = waiter = new Signal();
        }
        if (stale != null) {
            // Left behind by a wait that timed out: release its action instead of keeping it forever.
            stale.complete();
        }
        return s;
    }

    /** Queues {@code line} and {@code \n}, encoded with the configured charset; never waits. */
    @Override
    public Awaitable writeLineAsync(String line) throws IOException {
        Objects.requireNonNull(line, "line");
        checkWritable();
        return write(IoBuffer.wrap(line.concat("\n").getBytes(charset)));
    }

    /** Queues a copy of the bytes; never waits. */
    @Override
    public Awaitable writeAsync(byte[] src, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, src.length);
        checkWritable();
        if (len == 0) {
            return Signal.DONE;
        }
        return write(IoBuffer.wrap(Arrays.copyOfRange(src, off, off + len)));
    }

    /** Returns the completion of the last write queued (MINA writes complete in order). */
    @Override
    public Awaitable flushAsync() throws IOException {
        checkWritable();
        Awaitable last = lastWrite;
        return last != null ? last : Signal.DONE;
    }

    /**
     * Rethrows the failure of a completed write returned by this transport as an {@link IOException}.
     *
     * @throws IllegalStateException if {@code write} has not completed
     */
    @Override
    public void checkWrite(Awaitable write) throws IOException {
        Objects.requireNonNull(write, "write");
        if (!write.isDone()) {
            throw new IllegalStateException("write: " + write + " (expected: a completed write)");
        }
        if (write instanceof IoFutureAwaitable) {
            WriteFuture f = (WriteFuture) ((IoFutureAwaitable) write).future();
            Throwable t = f.getException();
            if (t != null) {
                throw new IOException("write to " + remoteAddress() + " failed: " + t, t);
            }
        }
    }

    /**
     * Queues {@code b}. The write counts as accepted at once while less than {@link
     * #WRITE_HIGH_WATER} bytes wait in the session's queue (write-behind, like a socket's send
     * buffer: no wait, no suspension); above that the caller waits for this write (back-pressure).
     * A write that already completed (or failed) is returned as it is; a later failure of an
     * accepted write is reported by the next write and by {@code flush()}.
     */
    private Awaitable write(IoBuffer b) throws IOException {
        IoFutureAwaitable previous = lastWrite;
        if (previous != null && previous.isDone()) {
            checkWrite(previous);
        }
        IoFutureAwaitable w = new IoFutureAwaitable(session.write(b));
        lastWrite = w;
        return w.isDone() || session.getScheduledWriteBytes() > WRITE_HIGH_WATER ? w : Signal.DONE;
    }

    private void checkWritable() throws IOException {
        synchronized (lock) {
            if (closed) {
                throw new IOException("transport to " + remoteAddress() + " is closed");
            }
        }
    }

    // ---------------------------------------------------------------- MINA events (I/O threads)

    /** Buffers received bytes and wakes the reader; called by MINA, never blocks. */
    void onReceived(IoBuffer in) {
        Signal s;
        boolean adjust;
        synchronized (lock) {
            if (closed || eof || failure != null || tooLongLength >= 0) {
                return;
            }
            int n = in.remaining();
            ensureCapacity(n);
            in.get(buf, end, n);
            end += n;
            arrived = true;
            s = takeWaiter();
            adjust = trafficControl && !readSuspended && end - start >= highWater;
        }
        if (s != null) {
            s.complete();
        }
        if (adjust) {
            adjustTraffic();
        }
    }

    /** Marks the end of the input (peer closed, shut its output down, or the session closed). */
    void onInputClosed() {
        Signal s;
        synchronized (lock) {
            if (eof) {
                return;
            }
            eof = true;
            arrived = true;
            s = takeWaiter();
        }
        if (s != null) {
            s.complete();
        }
        if (trafficControl) {
            adjustTraffic();
        }
    }

    /**
     * Ends the session from this side with {@code cause}: input already buffered can still be read,
     * then every read throws {@code cause}. Used when a server stops.
     */
    org.apache.mina.core.future.CloseFuture abort(IOException cause) {
        Signal s;
        synchronized (lock) {
            if (!eof && !closed && failure == null) {
                failure = cause;
                arrived = true;
            }
            s = takeWaiter();
        }
        if (s != null) {
            s.complete();
        }
        return session.closeNow();
    }

    /** Records a connection failure, wakes the reader and closes the session. */
    void onException(Throwable cause) {
        if (cause instanceof WriteException) {
            return; // reported through the failed WriteFuture
        }
        Signal s;
        synchronized (lock) {
            if (!eof && !closed && failure == null) {
                failure = cause instanceof IOException ? (IOException) cause : new IOException(cause);
                arrived = true;
            }
            s = takeWaiter();
        }
        if (s != null) {
            s.complete();
        }
        session.closeNow();
    }

    // ---------------------------------------------------------------- helpers (under lock)

    private Signal takeWaiter() {
        Signal s = waiter;
        waiter = null;
        return s;
    }

    private void checkReadable() throws IOException {
        if (closed) {
            throw new IOException("transport to " + remoteAddress() + " is closed");
        }
        if (tooLongLength >= 0) {
            throw new LineTooLongException(tooLongLength, maxLineLength);
        }
    }

    private IOException failed() {
        return new IOException("connection to " + remoteAddress() + " failed: " + failure.getMessage(), failure);
    }

    private LineTooLongException tooLong(long length) {
        tooLongLength = length;
        discardInput();
        return new LineTooLongException(length, maxLineLength);
    }

    private int indexOfNewline() {
        byte[] b = buf;
        for (int i = scan, e = end; i < e; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        scan = end;
        return -1;
    }

    private void consume(int newStart) {
        start = newStart;
        if (start == end) {
            start = end = scan = 0;
            if (buf.length > SHRINK_ABOVE) {
                buf = new byte[INITIAL_CAPACITY];
            }
        } else if (scan < start) {
            scan = start;
        }
    }

    private void discardInput() {
        start = end = scan = 0;
        buf = new byte[0];
    }

    private void ensureCapacity(int n) {
        if (end + n <= buf.length) {
            return;
        }
        int size = end - start;
        if (size + n <= buf.length && start > 0 && buf.length > 0) {
            System.arraycopy(buf, start, buf, 0, size);
        } else {
            long want = Math.max((long) buf.length * 2, (long) size + n);
            byte[] nb = new byte[(int) Math.min(Integer.MAX_VALUE - 16, Math.max(want, INITIAL_CAPACITY))];
            System.arraycopy(buf, start, nb, 0, size);
            buf = nb;
        }
        scan -= start;
        end = size;
        start = 0;
    }

    /** Counts the characters that {@code len} buffered bytes decode to, ignoring a partial last one. */
    private int countChars(int from, int len) {
        CharsetDecoder d = counter;
        if (d == null) {
            d = counter = charset.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE);
        }
        d.reset();
        CharBuffer out = CharBuffer.allocate(len);
        d.decode(ByteBuffer.wrap(buf, from, len), out, false);
        return out.position();
    }

    private boolean needsResume() {
        return trafficControl && readSuspended && !eof && end - start < lowWater;
    }

    // ---------------------------------------------------------------- read suspension (TCP only)

    /**
     * Brings MINA's read interest in line with the buffer: suspended while the unread input is above
     * the high-water mark (until it drops below the low-water mark) and after the input ended. Calls
     * from several threads are serialised without locks; a call arriving while another runs makes
     * that one re-evaluate, so the last state always wins.
     */
    private void adjustTraffic() {
        if (trafficWip.getAndIncrement() != 0) {
            return;
        }
        int missed = 1;
        for (;;) {
            boolean change;
            boolean suspend;
            synchronized (lock) {
                int size = end - start;
                suspend = eof || (readSuspended ? size >= lowWater : size >= highWater);
                change = suspend != readSuspended && !closed;
                if (change) {
                    readSuspended = suspend;
                }
            }
            if (change) {
                try {
                    if (suspend) {
                        session.suspendRead();
                    } else {
                        session.resumeRead();
                        // resumeRead() only changes the key's interest set; a selector blocked in
                        // select() would notice after its 1 s timeout. A flush request wakes it up
                        // (and writes nothing when nothing is queued).
                        NioSession nio = (NioSession) session;
                        nio.getProcessor().flush(nio);
                    }
                } catch (RuntimeException e) {
                    onException(e);
                }
            }
            missed = trafficWip.addAndGet(-missed);
            if (missed == 0) {
                return;
            }
        }
    }

    /** Unread bytes in the inbound buffer; for tests. */
    int bufferedBytes() {
        synchronized (lock) {
            return end - start;
        }
    }

    /** The unread-input level above which reading is suspended; for tests. */
    int highWater() {
        return highWater;
    }

    private static long nanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    @Override
    public String toString() {
        return "MinaTransport[" + session.getRemoteAddress() + ", session " + session.getId() + "]";
    }
}
