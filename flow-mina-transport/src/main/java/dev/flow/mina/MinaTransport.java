package dev.flow.mina;

import dev.flow.Deadline;
import dev.flow.Line;
import dev.flow.LineTerminator;
import dev.flow.LineTooLongException;
import dev.flow.MemoryHold;
import dev.flow.TlsUpgrade;
import dev.flow.SessionOutcome;
import dev.flow.TransportConfig;
import dev.flow.internal.Awaits;
import dev.flow.internal.FlowState;
import dev.flow.internal.Holds;
import dev.flow.spi.AsyncTransport;
import dev.flow.spi.Awaitable;
import dev.flow.spi.ByteScanner;
import dev.flow.spi.InputBuffer;
import dev.flow.spi.ReadDeadlines;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.io.OutputStream;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.filterchain.IoFilterChain;
import org.apache.mina.core.future.CloseFuture;
import org.apache.mina.core.future.DefaultWriteFuture;
import org.apache.mina.core.future.IoFutureListener;
import org.apache.mina.core.future.WriteFuture;
import org.apache.mina.core.session.AttributeKey;
import org.apache.mina.core.session.IdleStatus;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.core.write.DefaultWriteRequest;
import org.apache.mina.core.write.WriteException;
import org.apache.mina.filter.ssl.DisableEncryptWriteRequest;
import org.apache.mina.filter.ssl.SslFilter;
import org.apache.mina.transport.socket.nio.NioSession;

/**
 * A {@link dev.flow.Transport} over a MINA {@link IoSession}, created by {@link FlowServer} and
 * {@link FlowConnector} for each session they open.
 *
 * <p><b>Input.</b> Raw {@link IoBuffer}s delivered by MINA are copied into one {@link InputBuffer}
 * shared by every read; lines are decoded from it with the configured charset (which must be
 * ASCII-compatible). A line longer than its limit fails with {@link LineTooLongException} as soon
 * as the buffered part exceeds the limit; after that every read fails and the session should be
 * closed. Reading from the session (TCP and in-VM pipes) is suspended while the unread input
 * exceeds a high-water mark of at least 64 KiB, so a peer cannot make the buffer grow without bound;
 * the buffer shrinks back once a long line has been consumed. Over a {@link FlowConnector}'s TCP session
 * (by default; a server's with {@code -Dflow.mina.directReads=always} or {@code adaptive}) a read that finds
 * nothing buffered first reads the socket on its own thread ({@link DirectReader}). {@link #readFully(int)} allocates its
 * array as the bytes arrive and, with an {@link InputBudget}, reserves it there first (a read that
 * would exceed the budget fails). When the peer shuts its output down
 * the input ends but the session stays open for writing. With an {@link
 * TransportConfig#idleTimeout()} MINA's idle detection closes a session without input or output
 * for that long (whole seconds, checked about once a second), judged once the session's I/O thread
 * has read its sessions again after the check (bytes a held I/O thread could not read count as
 * input), and never while input that no read has seen yet waits for the handler, unless a write waits
 * for the peer: a busy server is not an idle peer.
 *
 * <p><b>Requests.</b> A request starts when a read sees its first byte (buffered when the read is
 * called, or the first to arrive while it waits) and ends at {@link #endRequest()} or at the next
 * write. With a {@link TransportConfig#requestTimeout()}, a read that has to wait inside a request
 * waits at most until the request's deadline (the timeout plus one second per {@link
 * TransportConfig#minRequestRate()} bytes received since its start) and then fails with a {@link
 * SocketTimeoutException} naming both settings; the deadline is computed when a read waits, never per
 * byte. When its server stops gracefully ({@link FlowServer#close(Duration)}), a read that would wait
 * outside a request with nothing buffered sees the end of the input.
 *
 * <p><b>Output: write-behind.</b> Each write is a {@code session.write(IoBuffer)} of a copy of the
 * bytes, or, on a TCP session without TLS or user filters when the previous write has completed and
 * nothing is queued, a non-blocking write of the copy straight to the socket from the writing thread
 * ({@link DirectWriter}; what the socket does not take at once is queued). A write is accepted at once while less than 64 KiB are queued (like a socket's send
 * buffer: no wait, no suspension); above that the writer waits until its bytes are written
 * (back-pressure). So writes go out without {@link #flush()} (in a flow, at the latest when it next
 * waits: see below), and {@code flush()} (one meaning on
 * every transport: everything written so far has been handed to the network) waits only while
 * writes are still queued; it costs nothing when they are not. A failed write-behind is reported
 * by the next write or flush, every failure of the session in one exception (the first, with the
 * others suppressed); once the connection has failed (the peer reset it), every write throws at once, and so
 * does a flush that still has writes held back (a flush with nothing left to send does not, as a JDK socket's
 * does not). A write or flush that exceeds the write timeout closes the session at once
 * ({@code closeNow}): bytes still queued are dropped. {@link #close()} lets the accepted writes go
 * out, then closes the session.
 *
 * <p><b>Write coalescing and flush consolidation.</b> In a flow (not on a plain thread, not in a task
 * that was not instrumented), a write is held back until the flow flushes, so that a reply written in
 * pieces (a status line, headers, a body) goes out in one buffer, one socket write, as over a buffered
 * socket. While input is buffered (the next pipelined request has arrived) a flush is held back too,
 * until the input runs dry: the next flush with nothing buffered sends what was held in one buffer. What
 * is held also goes out once it reaches
 * {@link #DEFERRED_BYTES_LIMIT} (with the write that passes it), before the flow next waits for anything
 * (Flow's suspension and pinned-wait paths run the sender the transport registered with the flow, {@link
 * FlowState#deferUntilWait}), when the flow ends, on {@link #close()} and before a TLS upgrade; it is
 * dropped when the session ends at once (abort, write timeout, closed by the peer). The system property
 * {@value #CONSOLIDATE_PROPERTY} set to {@code false} (read when the transport is created) turns it off.
 *
 * <p><b>TLS.</b> {@link #startTls(TlsUpgrade)} upgrades a TCP session in band (STARTTLS): under the
 * transport's lock it drops (or, with {@link TlsUpgrade.PlainInput#REJECT}, refuses) the plain-text input
 * buffered after the upgrade command, puts MINA's {@code SslFilter} first in the session's filter chain,
 * writes the go-ahead line past the filter (in plain text), and waits for the handshake. Plain-text bytes
 * MINA delivers until the handshake completes (read before the filter was in place) are dropped too; the
 * filter's own input, decrypted, goes through the same buffer and read back-pressure as before. A failed
 * or timed-out handshake closes this session only. {@link #tlsSession()} returns MINA's {@code
 * SslFilter.SSL_SECURED} session, also for sessions encrypted from their first byte.
 *
 * <p><b>Threads.</b> The transport is used by one flow or thread at a time. The blocking methods wait
 * like Flow's own loops over the {@link AsyncTransport} primitives ({@link Awaits}), with the read,
 * line and write timeouts of the configuration, and must never be called on a MINA I/O processor
 * thread. The MINA callbacks only copy data and complete awaitables; they never block and never
 * run flow code. Outside a flow the blocking methods block the calling thread; called from code
 * loaded through the {@code ContinuationClassLoader} they are suspension points.
 */
public final class MinaTransport implements AsyncTransport {

    /** The session attribute holding the transport. */
    static final AttributeKey TRANSPORT_KEY = new AttributeKey(MinaTransport.class, "transport");

    private static final int MIN_HIGH_WATER = 64 * 1024;
    /** Queued bytes above which a write waits for its completion. */
    static final int WRITE_HIGH_WATER = 64 * 1024;
    /** Bytes of a flow's writes held back (see the class comment), past which they are sent at once. */
    static final int DEFERRED_BYTES_LIMIT = 8 * 1024;
    /** Input budget releases smaller than this may wait while input stays buffered; see {@link #account(boolean)}. */
    static final int RELEASE_BATCH_BYTES = 1024;
    /** The system property that turns write coalescing and flush consolidation off: {@code false}; default {@code true}. */
    static final String CONSOLIDATE_PROPERTY = "flow.mina.consolidateFlushes";

    private final IoSession session;
    private final TransportConfig config;
    private final Charset charset;
    private static final byte[] LF = {'\n'};
    private static final byte[] CRLF = {'\r', '\n'};
    private final byte[] lineSeparator;
    private final boolean trafficControl;
    private final int highWater;
    private final int lowWater;
    private final IoFutureListener<WriteFuture> writeListener = this::onWriteComplete;
    /** The cap shared with other sessions, or {@code null}. */
    private final InputBudget budget;

    private final Object lock = new Object();
    // Guarded by lock.
    private final InputBuffer in;
    /** Input, end of stream or a failure arrived since the last poll. */
    private boolean arrived;
    private boolean eof;
    /** Written under lock; volatile (like {@link #ended}) so that writes can check it without the lock. */
    private volatile boolean closed;
    /** The connection's failure; written under lock, volatile so that writes can check it without the lock. */
    private volatile IOException failure;
    /** The bytes held back (write coalescing) that the session's close dropped, or 0; for flushes. */
    private volatile int heldBytesDropped;
    /** Why the session was ended from this side (server stopped, idle), for reads and writes. */
    private volatile IOException ended;
    private Signal waiter;
    /** Whether a read has polled the input: the handler has started reading. */
    private boolean polled;
    /**
     * When ({@code System.currentTimeMillis()}) the waiting read began to wait for the peer, 0 while no
     * read waits: set when a read finds nothing and waits, cleared by the next poll.
     */
    private long readWaitSince;
    /** Whether reading is (to be) suspended; read and written under lock, applied by adjustTraffic. */
    private boolean readSuspended;
    /** How many writes failed, the first failure and the later distinct ones. */
    private int failedWrites;
    /** Written under lock; volatile so that a write can see without the lock that none has failed. */
    private volatile Throwable firstWriteFailure;
    private java.util.List<Throwable> laterWriteFailures;
    /** The failed writes already counted (the listener and the waiting writer may both see one). */
    private java.util.Set<WriteFuture> recordedFailures;
    /** Bytes charged to the budget: the buffer's size when last accounted. */
    private long charged;
    /** Guards {@link #held}, {@link #openHolds} and {@link #holdsReleased}. */
    private final Object holdLock = new Object();
    /** Bytes of returned {@code readFully} arrays that open holds keep charged to the budget. */
    private long held;
    /** Open holds; written under {@link #holdLock}, read without it by {@link #holdingReads()}. */
    private volatile int openHolds;
    /** Whether the transport closed and released its holds' bytes. */
    private boolean holdsReleased;
    /** Whether the unread input went above the high-water mark and has not dropped below the low one. */
    private boolean overHighWater;
    /** Whether this transport is registered with the budget for a wake-up. */
    private boolean budgetWaiting;

    private final AtomicInteger trafficWip = new AtomicInteger();
    private volatile IoFutureAwaitable lastWrite;
    /** Writes straight to the socket when nothing is queued, or {@code null} (see {@link DirectWriter}). */
    private final DirectWriter direct;
    /** Reads the socket from the thread that needs its bytes, or {@code null} (see {@link DirectReader}). */
    private final DirectReader reader;
    /** Set once MINA reported the session closed. */
    private volatile boolean sessionClosed;
    /** Buffers handed to the network (straight to the socket or to MINA's queue); for tests. */
    private long sends;
    /** Whether a flow's writes may be held until it flushes or waits (coalescing and flush consolidation). */
    private final boolean consolidate;
    // A flow's writes held until it flushes (with no input buffered) or waits, guarded by lock.
    private IoBuffer[] deferred;
    private int deferredCount;
    private int deferredBytes;
    /** The flow whose next wait (or end) sends the deferred writes: it holds {@link #sendDeferred}. */
    private FlowState deferredFor;
    private final Runnable sendDeferred = this::sendDeferred;
    /** The read deadlines set by the handler; used on the handler's thread only. */
    private final ReadDeadlines deadlines = new ReadDeadlines();
    /** How the handler says the session ended, or {@code null}. */
    private volatile SessionOutcome outcome;

    /** {@link TransportConfig#requestTimeout()} in nanoseconds, 0 for none. */
    private final long requestTimeoutNanos;
    /** Bytes appended to the input since the session opened; guarded by lock. */
    private long received;
    /** Set by {@link #drain()}: a read that would wait between requests ends the input; guarded by lock. */
    private boolean draining;
    // The request being read: used on the handler's thread only (reads under lock, endRequest, writes).
    /** Whether a request has started (its first byte was seen by a read) and not ended. */
    private boolean inRequest;
    /** When the running request started ({@code System.nanoTime()}), with a request timeout only. */
    private long requestStart;
    /** {@link #received} before the running request's first byte. */
    private long requestBase;

    // The TLS upgrade, guarded by lock.
    /** The upgrade started by {@link #startTlsAsync}, or {@code null}. */
    private TlsUpgrade tlsUpgrade;
    /** Completes when the upgrade's handshake ends, either way; volatile to be completed without the lock. */
    private volatile Signal tlsHandshake;
    /** Whether plain-text input is dropped: from the upgrade's start until the handshake completes. */
    private boolean tlsPlainDropped;
    /** Plain-text bytes dropped by the upgrade. */
    private long tlsDropped;

    MinaTransport(IoSession session, TransportConfig config, InputBudget budget) {
        this.budget = budget;
        this.session = Objects.requireNonNull(session, "session");
        this.config = Objects.requireNonNull(config, "config");
        this.charset = checkCharset(config.charset());
        this.lineSeparator = lineSeparator(config.lineSeparator(), charset);
        this.in = new InputBuffer(charset, config.strictDecoding(), this);
        this.trafficControl = true;
        float bytesPerChar = Math.max(1f, maxBytesPerChar(charset));
        long detect = (long) Math.ceil(bytesPerChar) * (config.maxLineLength() + 1L) + 8;
        this.highWater = (int) Math.min(Integer.MAX_VALUE / 2, Math.max(MIN_HIGH_WATER, detect));
        this.lowWater = highWater / 2;
        this.requestTimeoutNanos = saturatedNanos(config.requestTimeout());
        this.direct = DirectWriter.of(session);
        this.reader = DirectReader.of(session, this);
        this.consolidate = Boolean.parseBoolean(System.getProperty(CONSOLIDATE_PROPERTY, "true"));
        long idle = config.idleTimeout().toMillis();
        if (idle > 0) {
            session.getConfig().setIdleTime(IdleStatus.BOTH_IDLE, (int) Math.min(Integer.MAX_VALUE, (idle + 999) / 1000));
        }
    }

    /**
     * Returns the transport attached to {@code session} by a {@link FlowServer} or {@link
     * FlowConnector}, or {@code null} if there is none. Thread-safe.
     */
    public static MinaTransport of(IoSession session) {
        Objects.requireNonNull(session, "session");
        return (MinaTransport) session.getAttribute(TRANSPORT_KEY);
    }

    /** Creates a transport for {@code session}, without an input budget, unless one is attached already. */
    static MinaTransport attach(IoSession session, TransportConfig config) {
        return attach(session, config, null);
    }

    /**
     * Creates a transport for {@code session} and attaches it, unless one is attached already.
     *
     * @param budget the cap on buffered input shared with other sessions, or {@code null}
     */
    static MinaTransport attach(IoSession session, TransportConfig config, InputBudget budget) {
        MinaTransport t = new MinaTransport(session, config, budget);
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
        if (isStandardAscii(charset)) {
            return charset;
        }
        if (!charset.canEncode() || !Arrays.equals("\n".getBytes(charset), new byte[] {'\n'})
                || !Arrays.equals("\r".getBytes(charset), new byte[] {'\r'})) {
            throw new IllegalArgumentException("charset: " + charset.name()
                    + " (expected: an ASCII-compatible charset that encodes \\n as the single byte 0x0A)");
        }
        return charset;
    }

    /**
     * Whether {@code charset} is UTF-8, US-ASCII or ISO-8859-1: ASCII-compatible, known without
     * encoding anything (a transport is made per connection, most of a reset flood's never read).
     */
    private static boolean isStandardAscii(Charset charset) {
        return charset == StandardCharsets.UTF_8 || charset == StandardCharsets.US_ASCII
                || charset == StandardCharsets.ISO_8859_1;
    }

    /** The most bytes a character takes in {@code charset}; without an encoder for the standard ones. */
    private static float maxBytesPerChar(Charset charset) {
        if (charset == StandardCharsets.UTF_8) {
            return 3f;
        }
        if (charset == StandardCharsets.US_ASCII || charset == StandardCharsets.ISO_8859_1) {
            return 1f;
        }
        return charset.newEncoder().maxBytesPerChar();
    }

    /** {@code separator} in {@code charset}; one shared array for the usual ones (never written). */
    private static byte[] lineSeparator(String separator, Charset charset) {
        if (isStandardAscii(charset)) {
            if (separator.equals("\n")) {
                return LF;
            }
            if (separator.equals("\r\n")) {
                return CRLF;
            }
        }
        return separator.getBytes(charset);
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

    /** Reads one line with the configured terminator and limit; blocks (a suspension point in instrumented code). */
    @Override
    public String readLine() throws IOException {
        return Awaits.readLine(this, config.lineTerminator(), config.maxLineLength(), false);
    }

    /** Reads one line with the given terminator and limit; blocks (a suspension point in instrumented code). */
    @Override
    public String readLine(LineTerminator terminator, int maxLength) throws IOException {
        return Awaits.readLine(this, terminator, maxLength, false);
    }

    /** Reads one line as bytes; blocks (a suspension point in instrumented code). */
    @Override
    public Line readLineBytes(LineTerminator terminator, int maxBytes) throws IOException {
        return Awaits.readLineBytes(this, terminator, maxBytes, false);
    }

    /** Reads a dot-terminated body into {@code sink}; blocks (a suspension point in instrumented code). */
    @Override
    public long readDotBody(OutputStream sink, long maxBytes) throws IOException {
        return Awaits.readDotBody(this, sink, maxBytes, false);
    }

    /** Sets a read deadline (see {@link dev.flow.Transport#deadline(Duration)}); on the handler's thread. */
    @Override
    public Deadline deadline(Duration timeout) {
        return deadlines.open(timeout);
    }

    /** The read deadlines open on this transport; on the handler's thread. */
    @Override
    public ReadDeadlines readDeadlines() {
        return deadlines;
    }

    /** Records how the session ended, for {@link FlowServer}'s {@link SessionStats}. Thread-safe. */
    @Override
    public void recordOutcome(SessionOutcome outcome) {
        this.outcome = Objects.requireNonNull(outcome, "outcome");
    }

    /** The outcome the handler recorded, or {@code null}. */
    SessionOutcome recordedOutcome() {
        return outcome;
    }

    /** Reads at least one and up to {@code len} bytes; blocks (a suspension point in instrumented code). */
    @Override
    public int read(byte[] dst, int off, int len) throws IOException {
        return Awaits.read(this, dst, off, len, false);
    }

    /** Reads exactly {@code len} bytes; blocks (a suspension point in instrumented code). */
    @Override
    public void readFully(byte[] dst, int off, int len) throws IOException {
        Awaits.readFully(this, dst, off, len, false);
    }

    /**
     * Reads exactly {@code n} bytes into an array allocated as they arrive (see {@link
     * dev.flow.Transport#readFully(int)}), reserving it in the input budget if there is one; blocks (a
     * suspension point in instrumented code).
     */
    @Override
    public byte[] readFully(int n) throws IOException {
        return Awaits.readFully(this, n, false);
    }

    /** Charges {@code bytes} to the input budget, if any; see {@link InputBudget}. Thread-safe. */
    @Override
    public void reserveInputMemory(long bytes, long declared) throws IOException {
        if (budget != null) {
            budget.reserve(this, bytes, declared);
        }
    }

    /** Releases {@code bytes} of the input budget, if any. Thread-safe. */
    @Override
    public void releaseInputMemory(long bytes) {
        if (budget != null) {
            budget.release(bytes);
        }
    }

    /**
     * Opens a hold on the memory of this transport's reads (see {@link dev.flow.Transport#holdReads()}):
     * with an input budget, the arrays {@code readFully(int)} returns stay charged there until the hold
     * closes; without one, a hold that counts nothing. Never blocks; on the handler's thread.
     */
    @Override
    public MemoryHold holdReads() {
        if (budget == null) {
            return Holds.NONE;
        }
        synchronized (holdLock) {
            openHolds++;
            return new Hold(held);
        }
    }

    /** Whether a hold is open; one volatile read (every small {@code readFully} asks). */
    @Override
    public boolean holdingReads() {
        return openHolds > 0;
    }

    @Override
    public boolean keepInputMemory(long bytes) {
        synchronized (holdLock) {
            if (openHolds == 0 || holdsReleased) {
                return false;
            }
            held += bytes;
            return true;
        }
    }

    /** Releases what the holds of this transport count; later holds count nothing. Any thread. */
    private void releaseHolds() {
        long release;
        synchronized (holdLock) {
            holdsReleased = true;
            release = held;
            held = 0;
        }
        releaseInputMemory(release);
    }

    /** A hold opened when {@link #held} was {@link #mark}; releases what was kept since. */
    private final class Hold implements MemoryHold {
        private final long mark;
        private boolean closed;

        Hold(long mark) {
            this.mark = mark;
        }

        @Override
        public long bytes() {
            synchronized (holdLock) {
                return closed ? 0 : Math.max(0, held - mark);
            }
        }

        @Override
        public void close() {
            long release;
            synchronized (holdLock) {
                if (closed) {
                    return;
                }
                closed = true;
                openHolds--;
                release = Math.max(0, held - mark);
                held = Math.min(held, mark);
            }
            if (release > 0) {
                releaseInputMemory(release);
            }
        }

        @Override
        public String toString() {
            return "MemoryHold[" + bytes() + " bytes of " + MinaTransport.this + "]";
        }
    }

    /** Discards exactly {@code n} bytes; blocks (a suspension point in instrumented code). */
    @Override
    public void skip(long n) throws IOException {
        Awaits.skip(this, n, false);
    }

    /** The unread bytes buffered; never blocks. Thread-safe. */
    @Override
    public int available() {
        synchronized (lock) {
            return in.size();
        }
    }

    /** Writes {@code line} and the line separator; waits only under back-pressure (see class comment). */
    @Override
    public void writeLine(String line) throws IOException {
        Awaits.awaitWrite(this, writeLineAsync(line), false);
    }

    /** Writes the bytes; waits only under back-pressure (see class comment). */
    @Override
    public void write(byte[] src, int off, int len) throws IOException {
        Awaits.awaitWrite(this, writeAsync(src, off, len), false);
    }

    /** Writes {@code text} in the configured charset; waits only under back-pressure. */
    @Override
    public void writeText(String text) throws IOException {
        Awaits.awaitWrite(this, writeTextAsync(text), false);
    }

    /** Waits, up to the write timeout, until every write queued so far has been written. */
    @Override
    public void flush() throws IOException {
        Awaits.awaitWrite(this, flushAsync(), false);
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
        long delta;
        IoBuffer batch;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            in.clear();
            delta = account();
            s = takeWaiter();
            batch = takeDeferred();
        }
        settle(delta);
        releaseHolds();
        if (s != null) {
            s.complete();
        }
        handshakeOver();
        if (batch != null && firstWriteFailure == null && ended == null) {
            send(batch, false);
        }
        IoFutureAwaitable last = lastWrite;
        if (last != null && !last.isDone()) {
            session.closeOnFlush();
        } else {
            session.closeNow();
        }
    }

    /**
     * Ends the request being read (see {@link dev.flow.Transport#endRequest()}): its deadline stops,
     * the next starts at the next byte a read sees. Never blocks; on the handler's thread.
     */
    @Override
    public void endRequest() {
        inRequest = false;
    }

    // ---------------------------------------------------------------- requests and draining

    /**
     * The time left before the running request's deadline: {@link TransportConfig#requestTimeout()}
     * after its first byte, plus one second per {@link TransportConfig#minRequestRate()} bytes
     * received since. {@link Long#MAX_VALUE} between requests or without a request timeout.
     */
    @Override
    public long requestNanosLeft() {
        if (!inRequest || requestTimeoutNanos == 0) {
            return Long.MAX_VALUE;
        }
        long got;
        synchronized (lock) {
            got = received - requestBase;
        }
        long rate = config.minRequestRate();
        double allowance = requestTimeoutNanos + (rate == 0 ? 0 : got * 1e9 / rate);
        double left = allowance - (System.nanoTime() - requestStart);
        // Beyond about 146 years: no deadline to time a wait with (the next wait checks again).
        return left >= (double) (1L << 62) ? Long.MAX_VALUE : (long) left;
    }

    /** The timeout of a request that did not arrive in time: its age, its bytes and both settings. */
    @Override
    public SocketTimeoutException requestTimedOut() {
        long got;
        synchronized (lock) {
            got = received - requestBase;
        }
        long age = inRequest ? (System.nanoTime() - requestStart) / 1_000_000 : 0;
        return new SocketTimeoutException("request from " + remoteAddress() + " not complete after " + age
                + " ms, " + got + " bytes received (requestTimeout " + config.requestTimeout().toMillis()
                + " ms, minRequestRate " + config.minRequestRate() + " bytes/s)");
    }

    /** Starts a request if none runs and input is buffered; under lock, on the handler's thread. */
    private void startRequestIfInput() {
        if (!inRequest && in.size() > 0) {
            inRequest = true;
            if (requestTimeoutNanos > 0) {
                requestStart = System.nanoTime();
                requestBase = received - in.size();
            }
        }
    }

    /** Whether the input ends here because the server is stopping: nothing buffered, no request running; under lock. */
    private boolean drained() {
        return draining && !inRequest && in.size() == 0;
    }

    /**
     * The server is stopping gracefully: from now on, a read that would have to wait while no request
     * runs and nothing is buffered sees the end of the input, so the handler ends at a request
     * boundary; a request already started may still be read. Wakes a waiting reader to check. Never
     * blocks; any thread.
     */
    void drain() {
        Signal s;
        synchronized (lock) {
            draining = true;
            arrived = true;
            s = takeWaiter();
        }
        if (s != null) {
            s.complete();
        }
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    // ---------------------------------------------------------------- TLS

    /**
     * Upgrades the session to TLS in band and waits for the handshake; see {@link
     * dev.flow.Transport#startTls(TlsUpgrade)} and the class comment. Blocks (a suspension point in
     * instrumented code).
     */
    @Override
    public SSLSession startTls(TlsUpgrade upgrade) throws IOException {
        return Awaits.startTls(this, upgrade, false);
    }

    /** The session's TLS session once its handshake is complete, else {@code null}. Never blocks; thread-safe. */
    @Override
    public SSLSession tlsSession() {
        return (SSLSession) session.getAttribute(SslFilter.SSL_SECURED);
    }

    /**
     * Starts the upgrade (see the class comment) and returns the handshake's completion. Never waits.
     *
     * @throws UnsupportedOperationException if the session is not a TCP session
     * @throws IllegalStateException if the session is already secured or an upgrade was started
     * @throws IOException if plain-text input is buffered and {@code upgrade} rejects it, or the
     *     transport is closed or failed
     */
    @Override
    public Awaitable startTlsAsync(TlsUpgrade upgrade) throws IOException {
        return startTlsAsync(upgrade, null);
    }

    /**
     * {@link #startTlsAsync(TlsUpgrade)} with the engine to use, configured by its caller ({@link FlowTlsSocket}: as
     * the library configured its socket), or {@code null} for one the upgrade describes.
     */
    Awaitable startTlsAsync(TlsUpgrade upgrade, SSLEngine engine) throws IOException {
        Objects.requireNonNull(upgrade, "upgrade");
        if (session.getTransportMetadata().isConnectionless()
                || !InetSocketAddress.class.isAssignableFrom(session.getTransportMetadata().getAddressType())) {
            throw new UnsupportedOperationException("startTls: " + this + " is a " + session.getTransportMetadata()
                    .getName() + " session, which cannot upgrade to TLS (expected: a TCP session)");
        }
        checkWritable();
        IoFilterChain chain = session.getFilterChain();
        Signal handshake = new Signal();
        long delta;
        IoBuffer batch;
        synchronized (lock) {
            checkReadable();
            if (failure != null) {
                throw failed();
            }
            if (tlsUpgrade != null) {
                throw new IllegalStateException("startTls: " + this + " was already upgraded with " + tlsUpgrade
                        + " (expected: one upgrade per connection)");
            }
            if (chain.contains(SslFilter.class)) {
                SSLSession secured = tlsSession();
                throw new IllegalStateException("startTls: " + this + " is already secured by TLS"
                        + (secured != null ? " (" + secured.getProtocol() + ")" : "") + " (expected: a plain-text session)");
            }
            int buffered = in.size();
            if (buffered > 0 && upgrade.plainInput() == TlsUpgrade.PlainInput.REJECT) {
                throw new IOException("startTls: " + buffered + " bytes of plain-text input from " + remoteAddress()
                        + " buffered after the upgrade command (expected: none; input pipelined after the command"
                        + " would be taken as sent inside TLS, the CVE-2011-0411 command injection)");
            }
            tlsDropped = buffered;
            in.clear();
            delta = account();
            tlsUpgrade = upgrade;
            tlsHandshake = handshake;
            tlsPlainDropped = true;
            batch = takeDeferred();
        }
        settle(delta);
        if (batch != null) {
            // Replies written before the upgrade go out before the TLS filter is in place, in plain text.
            send(batch, false);
        }
        adjustTraffic();
        if (direct != null) {
            direct.disable();
        }
        if (reader != null) {
            reader.disable();
        }
        try {
            chain.addFirst(FilterList.TLS, new UpgradeFilter(upgrade, engine));
        } catch (RuntimeException e) {
            IOException why = new IOException("startTls: the TLS filter could not be added to " + this + ": " + e, e);
            onException(why);
            throw why;
        }
        if (upgrade.goAhead() != null) {
            // Past the SslFilter, in plain text: the peer starts its handshake once it has read this line.
            writeLineAsync(upgrade.goAhead(), true);
        }
        if (!session.isConnected()) {
            handshakeOver();
        }
        return handshake;
    }

    /**
     * The outcome of the handshake: its session, or an exception naming the failure, the timeout or the
     * interrupt (the session is then closed).
     */
    @Override
    public SSLSession finishTls(Awaitable handshake) throws IOException {
        Objects.requireNonNull(handshake, "handshake");
        TlsUpgrade upgrade;
        synchronized (lock) {
            upgrade = tlsUpgrade;
        }
        if (upgrade == null || handshake != tlsHandshake) {
            throw new IllegalStateException("finishTls: " + handshake + " (expected: the handshake startTlsAsync returned)");
        }
        SSLSession secured = tlsSession();
        if (secured != null) {
            synchronized (lock) {
                tlsPlainDropped = false;
            }
            return secured;
        }
        IOException e;
        if (!handshake.isDone() && Thread.currentThread().isInterrupted()) {
            e = new InterruptedIOException("interrupted during the TLS handshake with " + remoteAddress());
        } else if (!handshake.isDone()) {
            e = new SocketTimeoutException("TLS handshake with " + remoteAddress() + " not complete after "
                    + upgrade.handshakeTimeout().toMillis() + " ms (handshakeTimeout); session closed");
        } else {
            IOException cause;
            synchronized (lock) {
                cause = failure;
            }
            e = cause != null
                    ? new IOException("TLS handshake with " + remoteAddress() + " failed: " + cause.getMessage(), cause)
                    : new IOException("TLS handshake with " + remoteAddress() + " failed: connection closed");
        }
        abort(e);
        throw e;
    }

    /** Plain-text bytes dropped by the TLS upgrade (buffered at its start, or read before the filter); for tests. */
    long tlsDroppedBytes() {
        synchronized (lock) {
            return tlsDropped;
        }
    }

    /** The TLS handshake completed ({@code SslEvent.SECURED}); on a MINA thread. */
    void onTlsSecured() {
        synchronized (lock) {
            tlsPlainDropped = false;
        }
        handshakeOver();
    }

    /** Completes the handshake's signal, if an upgrade waits for one: it succeeded, failed or the session ended. */
    private void handshakeOver() {
        Signal tls = tlsHandshake;
        if (tls != null) {
            tls.complete();
        }
    }

    /** MINA's {@code SslFilter} with the engine given, or else the one an upgrade describes. */
    private static final class UpgradeFilter extends SslFilter {
        private final TlsUpgrade upgrade;
        private final SSLEngine engine;

        UpgradeFilter(TlsUpgrade upgrade, SSLEngine engine) {
            super(upgrade.context());
            this.upgrade = upgrade;
            this.engine = engine;
        }

        @Override
        protected SSLEngine createEngine(IoSession session, InetSocketAddress addr) {
            if (engine != null) {
                return engine;
            }
            SSLEngine e = upgrade.peerHost() != null
                    ? sslContext.createSSLEngine(upgrade.peerHost(), upgrade.peerPort())
                    : sslContext.createSSLEngine();
            e.setUseClientMode(upgrade.clientMode());
            if (upgrade.wantClientAuth()) {
                e.setWantClientAuth(true);
            }
            if (upgrade.needClientAuth()) {
                e.setNeedClientAuth(true);
            }
            if (!upgrade.protocols().isEmpty()) {
                e.setEnabledProtocols(upgrade.protocols().toArray(new String[0]));
            }
            if (!upgrade.cipherSuites().isEmpty()) {
                e.setEnabledCipherSuites(upgrade.cipherSuites().toArray(new String[0]));
            }
            if (upgrade.clientMode() && upgrade.peerHost() != null) {
                javax.net.ssl.SSLParameters p = e.getSSLParameters();
                p.setEndpointIdentificationAlgorithm("HTTPS");
                e.setSSLParameters(p);
            }
            return e;
        }
    }

    /** A write that passes the {@code SslFilter} unencrypted: the go-ahead of an upgrade. */
    private static final class PlainWriteRequest extends DefaultWriteRequest implements DisableEncryptWriteRequest {
        PlainWriteRequest(IoBuffer message, WriteFuture future) {
            super(message, future);
        }
    }

    // ---------------------------------------------------------------- non-blocking primitives

    /**
     * Returns the next complete line if one is buffered, else {@code null}; never waits. Thread-safe,
     * but meant for the one flow using the transport.
     */
    @Override
    public String pollLine(LineTerminator terminator, int maxLength) throws IOException {
        String line = null;
        boolean adjust = false;
        long delta = 0;
        try {
            synchronized (lock) {
                beginPoll();
                try {
                    line = in.pollLine(terminator, maxLength, eof && failure == null);
                } finally {
                    delta = account(line != null);
                }
                if (line == null && failure != null) {
                    throw failed();
                }
                adjust = line != null && needsResume();
            }
        } finally {
            endPoll(delta, adjust);
        }
        return line;
    }

    /**
     * Offers the buffered bytes to {@code scanner} and consumes what it accepts; returns 0 if it took
     * none and -1 at end of stream with nothing buffered; never waits.
     */
    @Override
    public int pollScan(ByteScanner scanner) throws IOException {
        Objects.requireNonNull(scanner, "scanner");
        int n = 0;
        boolean adjust = false;
        long delta = 0;
        try {
            synchronized (lock) {
                beginPoll();
                try {
                    n = in.scan(scanner, eof && failure == null);
                } finally {
                    delta = account(n > 0);
                }
                if (n == 0) {
                    if (failure != null) {
                        throw failed();
                    }
                    return (eof || drained()) && in.size() == 0 ? -1 : 0;
                }
                adjust = needsResume();
            }
        } finally {
            endPoll(delta, adjust);
        }
        return n;
    }

    /** The start of every poll, under lock: input seen, transport open, a request started if input is buffered. */
    private void beginPoll() throws IOException {
        arrived = false;
        polled = true;
        readWaitSince = 0;
        checkReadable();
        startRequestIfInput();
    }

    /** The end of a poll, outside the lock: settles the budget and resumes reading if the buffer drained. */
    private void endPoll(long delta, boolean adjust) {
        settle(delta);
        if (adjust) {
            adjustTraffic();
        }
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
        long delta;
        synchronized (lock) {
            beginPoll();
            n = in.read(dst, off, len);
            if (n == 0) {
                if (failure != null) {
                    throw failed();
                }
                return (eof || drained()) && len > 0 ? -1 : 0;
            }
            adjust = needsResume();
            delta = account(true);
        }
        endPoll(delta, adjust);
        return n;
    }

    /** Discards up to {@code n} buffered bytes; returns 0 if none is buffered and -1 at end of stream. */
    @Override
    public long pollSkip(long n) throws IOException {
        long k;
        boolean adjust;
        long delta;
        synchronized (lock) {
            beginPoll();
            k = in.skip(n);
            if (k == 0) {
                if (failure != null) {
                    throw failed();
                }
                return (eof || drained()) && n > 0 ? -1 : 0;
            }
            adjust = needsResume();
            delta = account(true);
        }
        endPoll(delta, adjust);
        return k;
    }

    /**
     * Returns whether the input has ended: the peer closed or shut down its output, the connection
     * failed, a line was too long, this transport was closed, or its server is stopping and no
     * request is running or buffered (see {@link #drain()}).
     */
    @Override
    public boolean isInputClosed() {
        synchronized (lock) {
            return eof || closed || failure != null || in.failed() || drained();
        }
    }

    /**
     * Returns an awaitable that is already done if input, end of stream or a failure arrived since
     * the last poll (first read from the socket on this thread, see {@link DirectReader}), and otherwise
     * completes, on a MINA thread, when the next one arrives. Each call
     * replaces the previous pending awaitable, which completes at once (a spurious wake-up for a wait
     * that has already timed out), so only one reader may wait at a time.
     */
    @Override
    public Awaitable inputReady() {
        // Only the flow that holds writes adds to them, so its own count is exact here without the lock.
        if (deferredCount > 0) {
            sendHeldBeforeRead();
        }
        if (reader != null) {
            readDirectly();
        }
        Signal s;
        Signal stale;
        synchronized (lock) {
            if (arrived || eof || closed || failure != null || in.failed() || drained()) {
                return Signal.DONE;
            }
            stale = waiter;
            s = waiter = new Signal();
            readWaitSince = System.currentTimeMillis();
        }
        if (stale != null) {
            // Left behind by a wait that timed out: release its action instead of keeping it forever.
            stale.complete();
        }
        return s;
    }

    /**
     * Before a reader waits: reads what the socket has on this thread ({@link DirectReader}), unless input
     * arrived since the last poll, the input ended or failed, or reads are suspended (back-pressure).
     * Bytes read are appended as the I/O thread's are, and mark input as arrived.
     */
    private void readDirectly() {
        synchronized (lock) {
            if (arrived || eof || closed || failure != null || in.failed() || readSuspended) {
                return;
            }
        }
        reader.readBeforeWait();
    }

    /** The direct reader the session's I/O thread reads through, or {@code null} (MINA's read and chain). */
    DirectReader directReader() {
        return reader;
    }

    /** Queues {@code line} and the line separator, encoded with the configured charset; never waits. */
    @Override
    public Awaitable writeLineAsync(String line) throws IOException {
        return writeLineAsync(line, false);
    }

    /** Queues {@code line} and the separator; {@code plain}: past the TLS filter, unencrypted. */
    private Awaitable writeLineAsync(String line, boolean plain) throws IOException {
        Objects.requireNonNull(line, "line");
        checkWritable();
        byte[] text = line.getBytes(charset);
        byte[] b = Arrays.copyOf(text, text.length + lineSeparator.length);
        System.arraycopy(lineSeparator, 0, b, text.length, lineSeparator.length);
        return write(IoBuffer.wrap(b), plain);
    }

    /** Queues {@code text} encoded with the configured charset; never waits. */
    @Override
    public Awaitable writeTextAsync(String text) throws IOException {
        Objects.requireNonNull(text, "text");
        checkWritable();
        if (text.isEmpty()) {
            return Signal.DONE;
        }
        return write(IoBuffer.wrap(text.getBytes(charset)));
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

    /**
     * Returns the completion of the last write queued (MINA writes complete in order). Once the connection has
     * failed or closed it throws only if writes were still held back (they are dropped), not when every byte
     * written was handed to the network before: a JDK socket's {@code flush()} does not throw then either.
     */
    @Override
    public Awaitable flushAsync() throws IOException {
        checkOpen();
        int dropped = heldBytesDropped;
        if (dropped > 0) {
            throw failure != null ? failed()
                    : new IOException("connection to " + remoteAddress() + " closed before " + dropped
                            + " bytes held back were sent");
        }
        if (consolidate) {
            synchronized (lock) {
                if (deferredCount > 0 && in.size() > 0 && deferredFor == FlowState.current()) {
                    // Consolidated: sent before this flow waits for anything, when the input runs dry
                    // or past the bound.
                    return Signal.DONE;
                }
            }
        }
        return sendHeld();
    }

    /**
     * Sends the writes held back (write coalescing, flush consolidation) now, whatever is buffered, and
     * returns the completion of the last write queued: for what must follow every byte written so far
     * ({@code shutdownOutput()}).
     */
    Awaitable sendHeld() throws IOException {
        IoBuffer batch;
        synchronized (lock) {
            batch = takeDeferred();
        }
        if (batch != null) {
            throwWriteFailure();
            if (failure != null) {
                throw failed();
            }
            send(batch, false);
        }
        Awaitable last = lastWrite;
        return last != null ? last : Signal.DONE;
    }

    /**
     * Rethrows the failures of this session's writes, if any has failed: every failure so far, the
     * first one with the others suppressed.
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
            onWriteComplete((WriteFuture) ((IoFutureAwaitable) write).future());
        }
        throwWriteFailure();
    }

    /** Closes the session at once (queued bytes are dropped) and returns the timeout to throw. */
    @Override
    public IOException writeTimedOut(Duration timeout) {
        SocketTimeoutException e = new SocketTimeoutException("write to " + remoteAddress() + " timed out after "
                + timeout.toMillis() + " ms (writeTimeout); session closed with "
                + session.getScheduledWriteBytes() + " bytes queued");
        long delta;
        synchronized (lock) {
            closed = true;
            in.clear();
            delta = account();
            dropDeferred();
        }
        settle(delta);
        session.closeNow();
        return e;
    }

    /**
     * Queues {@code b}. The write counts as accepted at once while less than {@link
     * #WRITE_HIGH_WATER} bytes wait in the session's queue (write-behind, like a socket's send
     * buffer: no wait, no suspension); above that the caller waits for this write (back-pressure).
     * A later failure of an accepted write is reported by the next write and by {@code flush()}.
     */
    private Awaitable write(IoBuffer b) throws IOException {
        return write(b, false);
    }

    /** {@link #write(IoBuffer)}; {@code plain}: past the TLS filter, unencrypted (an upgrade's go-ahead). */
    private Awaitable write(IoBuffer b, boolean plain) throws IOException {
        throwWriteFailure();
        inRequest = false;
        if (consolidate && !plain) {
            b = deferOrBatch(b);
            if (b == null) {
                return Signal.DONE;
            }
        }
        return send(b, plain);
    }

    /**
     * Write coalescing: holds {@code b} back, in a flow, while fewer than {@link #DEFERRED_BYTES_LIMIT}
     * bytes are held with it; returns {@code null} then (the flow's flush, next wait or end sends it).
     * Otherwise returns what to send now: {@code b}, after what was held, in one buffer.
     */
    private IoBuffer deferOrBatch(IoBuffer b) {
        synchronized (lock) {
            int n = b.remaining();
            boolean defer = deferredBytes + n <= DEFERRED_BYTES_LIMIT && registerDeferral();
            if (!defer && deferredCount == 0) {
                return b;
            }
            if (deferred == null) {
                deferred = new IoBuffer[4];
            } else if (deferredCount == deferred.length) {
                deferred = Arrays.copyOf(deferred, deferredCount * 2);
            }
            deferred[deferredCount++] = b;
            deferredBytes += n;
            return defer ? null : takeDeferred();
        }
    }

    /**
     * Whether the flow running on this thread may defer writes: it has (or now gets) {@link #sendDeferred}
     * registered, to run before it next waits or when it ends. Never outside a flow (a plain thread may
     * block where Flow cannot see it); under lock.
     */
    private boolean registerDeferral() {
        if (deferredFor != null) {
            return deferredFor == FlowState.current();
        }
        deferredFor = FlowState.deferUntilWait(sendDeferred);
        return deferredFor != null;
    }

    /** The deferred writes in one buffer (or {@code null} if none), forgotten here; under lock. */
    private IoBuffer takeDeferred() {
        int n = deferredCount;
        if (n == 0) {
            return null;
        }
        IoBuffer out;
        if (n == 1) {
            out = deferred[0];
        } else {
            out = IoBuffer.wrap(new byte[deferredBytes]);
            for (int i = 0; i < n; i++) {
                out.put(deferred[i]);
            }
            out.flip();
        }
        Arrays.fill(deferred, 0, n, null);
        deferredCount = 0;
        deferredBytes = 0;
        return out;
    }

    /** Drops the deferred writes (the session is ending at once); under lock. */
    private void dropDeferred() {
        if (deferredCount > 0) {
            Arrays.fill(deferred, 0, deferredCount, null);
            deferredCount = 0;
            deferredBytes = 0;
        }
    }

    /**
     * Sends the deferred writes: registered with the flow that deferred them, it runs before that flow
     * waits for anything and when it ends. Never waits (back-pressure is left to the next write or flush)
     * and never throws (a failure is reported by the next write or flush, as for any write).
     */
    private void sendDeferred() {
        IoBuffer batch;
        synchronized (lock) {
            deferredFor = null;
            batch = takeDeferred();
        }
        sendBatch(batch);
    }

    /**
     * Before a read waits: sends what the reading flow holds back, so that a reply the peer gives at once
     * (an in-VM pipe answers on the writing thread) is seen before the flow suspends for it. The sender
     * stays registered (it finds nothing at the wait). On the reading flow's thread.
     */
    private void sendHeldBeforeRead() {
        IoBuffer batch;
        synchronized (lock) {
            if (deferredCount == 0 || deferredFor != FlowState.current()) {
                return;
            }
            batch = takeDeferred();
        }
        sendBatch(batch);
    }

    /** Sends a batch of held writes unless the session has failed; never throws. */
    private void sendBatch(IoBuffer batch) {
        if (batch != null && firstWriteFailure == null && ended == null) {
            try {
                send(batch, false);
            } catch (RuntimeException e) {
                onException(e);
            }
        }
    }

    /** Hands {@code b} to the network: straight to the socket, or to MINA's queue (see {@link #write(IoBuffer)}). */
    private Awaitable send(IoBuffer b, boolean plain) {
        sends++;
        if (!plain && direct != null) {
            // Straight to the socket when the previous write is done and nothing is queued; what the
            // socket does not take at once is queued below, after it.
            IoFutureAwaitable last = lastWrite;
            if ((last == null || last.isDone()) && direct.tryWrite(b)) {
                return Signal.DONE;
            }
        }
        WriteFuture f;
        if (plain && session.isConnected() && !session.isClosing()) {
            f = new DefaultWriteFuture(session);
            session.getFilterChain().fireFilterWrite(new PlainWriteRequest(b, f));
        } else {
            f = session.write(b);
        }
        IoFutureAwaitable w = new IoFutureAwaitable(f);
        lastWrite = w;
        if (sessionClosed) {
            // The session closed between session.write and lastWrite = w: onSessionClosed saw the
            // previous write. Both fields are volatile, so one of the two sides fails this one.
            failIfPending(w);
        }
        f.addListener(writeListener);
        return w.isDone() || session.getScheduledWriteBytes() > WRITE_HIGH_WATER ? w : Signal.DONE;
    }

    /** Records the failure of a completed write, once per write; on a MINA thread, or the writer's. */
    private void onWriteComplete(WriteFuture f) {
        Throwable t = f.getException();
        if (t == null) {
            return;
        }
        synchronized (lock) {
            if (recordedFailures == null) {
                recordedFailures = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            }
            if (!recordedFailures.add(f)) {
                return;
            }
            failedWrites++;
            if (firstWriteFailure == null) {
                firstWriteFailure = t;
            } else if (t != firstWriteFailure) {
                if (laterWriteFailures == null) {
                    laterWriteFailures = new java.util.ArrayList<>(2);
                }
                if (!laterWriteFailures.contains(t)) {
                    laterWriteFailures.add(t);
                }
            }
        }
    }

    /**
     * Throws, if any write has failed, one exception reporting every failure: the first as its
     * cause, the later distinct ones suppressed, the count in the message. After the session was
     * ended from this side the message says why (e.g. "server ... stopped").
     */
    private void throwWriteFailure() throws IOException {
        if (firstWriteFailure == null) {
            return;
        }
        IOException e;
        synchronized (lock) {
            if (firstWriteFailure == null) {
                return;
            }
            String count = failedWrites == 1 ? "" : " (" + failedWrites + " writes failed)";
            e = ended != null
                    ? new IOException("write to " + remoteAddress() + " failed: " + ended.getMessage() + count,
                            ended)
                    : new IOException("write to " + remoteAddress() + " failed: " + firstWriteFailure + count,
                            firstWriteFailure);
            if (ended != null) {
                e.addSuppressed(firstWriteFailure);
            }
            if (laterWriteFailures != null) {
                laterWriteFailures.forEach(e::addSuppressed);
            }
        }
        throw e;
    }

    /**
     * Throws if the session was ended from this side, the connection failed (a reset: what is written now could
     * only be dropped) or the transport closed; without the lock (all are final states).
     */
    private void checkWritable() throws IOException {
        checkOpen();
        if (failure != null) {
            throw failed();
        }
    }

    /**
     * Throws if the session was ended from this side or the transport closed; without the lock (both are final
     * states). A failed connection alone passes: a flush with nothing left to send has nothing to lose.
     */
    private void checkOpen() throws IOException {
        IOException why = ended;
        if (why != null) {
            throw new IOException("connection to " + remoteAddress() + " failed: " + why.getMessage(), why);
        }
        if (closed) {
            throw new IOException("transport to " + remoteAddress() + " is closed");
        }
    }

    // ---------------------------------------------------------------- MINA events (I/O threads)

    /** Buffers received bytes and wakes the reader; called by MINA, never blocks. */
    void onReceived(IoBuffer data) {
        Signal s = receive(data.buf(), false);
        if (s != null) {
            s.complete();
        }
    }

    /**
     * Buffers the bytes a {@link DirectReader} read (consuming {@code data}) and returns the waiting
     * reader's signal, which the caller completes once it has released its read flag, or {@code null};
     * never blocks.
     */
    Signal receiveDirect(ByteBuffer data) {
        return receive(data, true);
    }

    /**
     * Buffers {@code data} and returns the waiting reader's signal, or {@code null}. With {@code
     * adjustFirst}, applies back-pressure before returning; otherwise completes the signal first, then
     * applies it (MINA's path, whose flows an I/O thread may run inline in {@code complete}).
     */
    private Signal receive(ByteBuffer data, boolean adjustFirst) {
        Signal s;
        boolean adjust;
        long delta;
        synchronized (lock) {
            if (closed || eof || failure != null || in.failed()) {
                return null;
            }
            if (tlsPlainDropped && session.getAttribute(SslFilter.SSL_SECURED) == null) {
                // Read before the SslFilter was in place: plain text sent after the upgrade command.
                tlsDropped += data.remaining();
                return null;
            }
            received += data.remaining();
            in.append(data);
            arrived = true;
            s = takeWaiter();
            delta = account();
            adjust = trafficControl && !readSuspended && in.size() >= highWater;
        }
        settle(delta);
        adjust |= budget != null && budget.exhausted();
        if (!adjustFirst && s != null) {
            s.complete();
            s = null;
        }
        if (adjust) {
            adjustTraffic();
        }
        return s;
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
        handshakeOver();
        if (trafficControl) {
            adjustTraffic();
        }
    }

    /**
     * The session has closed: ends the input and fails the last write if it is still pending. MINA
     * does not complete the future of a write it was in the middle of sending when the peer closed,
     * so a writer waiting on it (back-pressure, flush) would otherwise wait for ever (#8.11).
     */
    void onSessionClosed() {
        sessionClosed = true;
        synchronized (lock) {
            if (deferredBytes > 0) {
                heldBytesDropped = deferredBytes;
            }
            dropDeferred();
        }
        onInputClosed();
        failIfPending(lastWrite);
    }

    /** Fails {@code w} if it is still pending after the session closed. */
    private void failIfPending(IoFutureAwaitable w) {
        if (w != null && !w.isDone()) {
            IOException cause;
            synchronized (lock) {
                cause = ended != null ? ended
                        : new IOException("connection to " + remoteAddress() + " closed before the write completed");
            }
            ((WriteFuture) w.future()).setException(cause);
        }
    }

    /**
     * Ends the session from this side with {@code cause}: input already buffered can still be read,
     * then every read throws {@code cause}, and every write fails with it from now on (also the
     * writes still queued). Used when a server stops. Never blocks.
     */
    CloseFuture abort(IOException cause) {
        end(cause);
        return session.closeNow();
    }

    /**
     * MINA found the session without input or output for the idle timeout: ends it like {@link
     * #abort} if it still is once its I/O thread has read its sessions again, and unless the peer
     * waits for the server (see {@link #idleIfStill()}). On the I/O thread that checks idleness.
     */
    void onIdle() {
        FlowNioProcessors.FlowNioProcessor io = FlowNioProcessors.FlowNioProcessor.current();
        if (io != null) {
            // The I/O thread may have been held (a flow it ran, a cold class load): bytes the peer sent
            // meanwhile wait unread in the socket. Judged after the thread's next read of its sessions.
            io.afterNextRead(this::idleIfStill);
        } else {
            idleIfStill();
        }
    }

    /**
     * Ends the session for its idle timeout if it has had no input or output for that long, the peer is
     * not waiting for the server, and the server is not busy with the session (#14). The peer waits
     * when input arrived that the handler has not looked at, with no write waiting for the peer to read
     * it: the server's to serve (its workers were busy), not a sign of an idle peer. The server is busy
     * when its handler has started reading and now waits for neither input (then the idle time counts
     * from the start of that wait, not from the last input), a write, nor a TLS handshake: it computes,
     * or waits for something other than the peer, with its request read.
     */
    private void idleIfStill() {
        long idle = session.getConfig().getBothIdleTimeInMillis();
        if (idle <= 0 || peerWaits()) {
            return;
        }
        long waitingSince = serverWaitsForPeerSince();
        if (waitingSince < 0 || System.currentTimeMillis() - Math.max(session.getLastIoTime(), waitingSince) < idle) {
            return;
        }
        abort(new SocketTimeoutException("connection idle for " + config.idleTimeout().toMillis()
                + " ms (idleTimeout)"));
    }

    /**
     * Since when ({@code System.currentTimeMillis()}, 0 for "as long as the session's last I/O says")
     * the server waits for the peer, or -1 if it does not: its handler has started reading and waits for
     * neither input, a write, nor a TLS handshake. Before the handler's first read (a session not yet
     * started, or one whose peer sent nothing) the session's last I/O decides, as a silent peer's does.
     */
    private long serverWaitsForPeerSince() {
        IoFutureAwaitable w = lastWrite;
        Signal tls = tlsHandshake;
        if ((w != null && !w.isDone()) || (tls != null && !tls.isDone())) {
            return 0;
        }
        synchronized (lock) {
            if (readWaitSince != 0) {
                return readWaitSince;
            }
            return polled ? -1 : 0;
        }
    }

    /** Whether input arrived that no read has seen yet, and no write waits for the peer to take it. */
    private boolean peerWaits() {
        IoFutureAwaitable w = lastWrite;
        if (w != null && !w.isDone()) {
            return false;
        }
        synchronized (lock) {
            return arrived && in.size() > 0;
        }
    }

    private void end(IOException cause) {
        Signal s;
        synchronized (lock) {
            if (ended == null) {
                ended = cause;
            }
            dropDeferred();
            if (!eof && !closed && failure == null) {
                failure = cause;
                arrived = true;
            }
            s = takeWaiter();
        }
        if (s != null) {
            s.complete();
        }
        handshakeOver();
    }

    /** Records a connection failure, wakes the reader and closes the session. */
    void onException(Throwable cause) {
        if (cause instanceof WriteException) {
            return; // reported through the failed WriteFuture
        }
        if (cause instanceof CancelledKeyException) {
            // MINA changed the interest of a session whose key its close had just cancelled: the session
            // is closing, and its close ends the input (a soak's stop saw handlers fail with it).
            session.closeNow();
            return;
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
        handshakeOver();
        session.closeNow();
        // A write the TLS filter held until its handshake completed was seen never to complete when the handshake
        // failed, although the close above followed (LayeredTlsTest, untrusted-write): failing it here wakes its writer.
        failIfPending(lastWrite);
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
    }

    private IOException failed() {
        return new IOException("connection to " + remoteAddress() + " failed: " + failure.getMessage(), failure);
    }

    /** The change of the buffer's size since the last accounting, all of it; under lock. */
    private long account() {
        return account(false);
    }

    /**
     * The change of the buffer's size since the last accounting; under lock. A poll that took input
     * ({@code consuming}) may leave a release of less than {@link #RELEASE_BATCH_BYTES} to a later
     * accounting while bytes stay buffered: the budget is one counter shared by all sessions and their
     * I/O threads, and updating it for every line read was the largest item of Flow's own code on a
     * pipelined load (bench/RESULTS.md, v31). The release comes with the poll that empties the buffer
     * or finds nothing to take (so a flow never waits for input with a release held), the next
     * arrival, or a close; until then the budget counts at most that many bytes too many for this
     * session, never too few.
     */
    private long account(boolean consuming) {
        long size = in.size();
        long delta = size - charged;
        if (consuming && delta < 0 && size > 0 && delta > -RELEASE_BATCH_BYTES) {
            return 0;
        }
        charged = size;
        return delta;
    }

    /** Charges or releases {@code delta} bytes of the shared budget; outside the lock (it may wake other sessions). */
    private void settle(long delta) {
        if (budget != null && delta != 0) {
            budget.add(delta);
        }
    }

    /** The shared budget dropped below its resume level: re-evaluate read suspension. Any thread. */
    void budgetFreed() {
        synchronized (lock) {
            budgetWaiting = false;
        }
        adjustTraffic();
    }

    private boolean needsResume() {
        return trafficControl && readSuspended && !eof && in.size() < lowWater;
    }

    // ---------------------------------------------------------------- read suspension

    /**
     * Brings MINA's read interest in line with the buffer: suspended while the unread input is above
     * the high-water mark (until it drops below the low-water mark) and after the input ended. Calls
     * from several threads are serialised without locks; a call arriving while another runs makes
     * that one re-evaluate, so the last state always wins. For an in-VM pipe, resuming delivers the
     * messages MINA held back, on this thread.
     */
    private void adjustTraffic() {
        if (trafficWip.getAndIncrement() != 0) {
            return;
        }
        int missed = 1;
        for (;;) {
            boolean change;
            boolean suspend;
            boolean waitForBudget = false;
            synchronized (lock) {
                int size = in.size();
                boolean overBudget = budget != null
                        && (readSuspended ? budget.aboveResumeLevel() : budget.exhausted());
                overHighWater = overHighWater ? size >= lowWater : size >= highWater;
                suspend = eof || overBudget || overHighWater;
                change = suspend != readSuspended && !closed;
                if (change) {
                    readSuspended = suspend;
                }
                if (overBudget && !eof && !closed && !budgetWaiting) {
                    budgetWaiting = true;
                    waitForBudget = true;
                }
            }
            if (change) {
                try {
                    if (suspend) {
                        session.suspendRead();
                    } else {
                        session.resumeRead();
                        if (session instanceof NioSession) {
                            // resumeRead() only changes the key's interest set; a selector blocked in
                            // select() would notice after its 1 s timeout. A flush request wakes it up
                            // (and writes nothing when nothing is queued).
                            NioSession nio = (NioSession) session;
                            if (direct != null) {
                                direct.wakeUpWanted();
                            }
                            nio.getProcessor().flush(nio);
                        }
                    }
                } catch (RuntimeException e) {
                    onException(e);
                }
            }
            if (waitForBudget) {
                budget.suspendedFor(this);
            }
            missed = trafficWip.addAndGet(-missed);
            if (missed == 0) {
                return;
            }
        }
    }

    /** How many buffers were handed to the network: each costs at least one socket write; for tests. */
    long sends() {
        return sends;
    }

    /**
     * Whether a reader's wake-up is registered on this transport's input, so that input arriving now
     * wakes it on the thread that reads it (a flow is counted suspended a moment before); for tests.
     */
    boolean awaitsInput() {
        Signal s;
        synchronized (lock) {
            s = waiter;
        }
        return s != null && s.hasActions();
    }

    /** Unread bytes in the inbound buffer; for tests. */
    int bufferedBytes() {
        synchronized (lock) {
            return in.size();
        }
    }

    /** The inbound buffer's array length; for tests. */
    int bufferCapacity() {
        synchronized (lock) {
            return in.capacity();
        }
    }

    /** Bytes decoded to count the characters of incomplete lines; for tests. */
    long decodedBytes() {
        synchronized (lock) {
            return in.decodedBytes();
        }
    }

    /** A one-line account of the transport's state, for diagnostics. */
    String state() {
        IoFutureAwaitable last = lastWrite;
        synchronized (lock) {
            return this + ": buffered=" + in.size() + " eof=" + eof + " closed=" + closed + " failure=" + failure
                    + " waiter=" + waiter + " readSuspended=" + readSuspended + " lastWrite="
                    + (last == null ? "none" : last.isDone() ? "done" : "pending") + " sessionClosed=" + sessionClosed
                    + " connected=" + session.isConnected();
        }
    }

    /** The unread-input level above which reading is suspended; for tests. */
    int highWater() {
        return highWater;
    }

    @Override
    public String toString() {
        return "MinaTransport[" + session.getRemoteAddress() + ", session " + session.getId() + "]";
    }
}
