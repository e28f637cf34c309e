package dev.flow.mina;

import com.sun.management.UnixOperatingSystemMXBean;
import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.LineTooLongException;
import dev.flow.MemoryBudgetExceededException;
import dev.flow.SessionOutcome;
import dev.flow.Transport;
import dev.flow.TransportConfig;
import dev.flow.internal.FlowTask;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.CharacterCodingException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import java.util.function.Function;
import javax.net.ssl.SSLContext;
import org.apache.mina.core.filterchain.IoFilter;
import org.apache.mina.core.filterchain.IoFilterAdapter;
import org.apache.mina.core.future.CloseFuture;
import org.apache.mina.core.service.IoAcceptor;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.core.write.WriteToClosedSessionException;
import org.apache.mina.transport.vmpipe.VmPipeAcceptor;
import org.apache.mina.transport.vmpipe.VmPipeAddress;
import org.slf4j.Logger;

/**
 * Accepts TCP or in-VM ({@link VmPipeAddress}) sessions and runs one handler per session, either as
 * a flow on a {@link FlowScheduler} (continuation mode) or on a thread of its own (sync mode).
 *
 * <p><b>The handler.</b> The safe form names a class; the server creates one instance per session
 * with the class's public constructor {@code (Transport, extra...)} and runs its {@code call()} or
 * {@code run()}. Loaded through a {@code ContinuationClassLoader}, the class is instrumented and every
 * instance is a flow that suspends:
 *
 * <pre>{@code
 * try (FlowServer server = FlowServer.builder()
 *         .scheduler(scheduler)                                    // continuation mode
 *         .handler(loader, "com.example.protocol.EchoHandler")     // new EchoHandler(transport) per session
 *         .start(new InetSocketAddress("127.0.0.1", 0))) {
 *     SocketAddress address = server.localAddress();
 *     ...
 * }
 * }</pre>
 *
 * <p>A factory function ({@link Builder#handler(Function)}) also works, as long as what it returns is
 * the loaded object itself: a lambda written in a package the loader does not include, wrapped around
 * the handler ({@code t -> () -> handler.call(t)}), is not instrumented and cannot suspend. In
 * continuation mode (a scheduler whose policy is not {@link dev.flow.SuspendPolicy#never()}) such a
 * task is refused: {@link Builder#start} fails for a handler class that is not instrumented, and a
 * factory's task that is not instrumented fails its session at once with an {@link
 * IllegalStateException} naming the class and the fix (reported to {@link Builder#onFailure}), instead
 * of blocking a worker for the life of the connection. Sync mode ({@link Builder#threadPerSession()},
 * or a scheduler with policy {@code never()}) accepts any task.
 *
 * <p><b>Sessions.</b> When the handler ends, normally or not, the session is closed; a failing handler
 * affects no other session. At most {@link Builder#maxSessions(int)} handlers run at once; sessions
 * beyond are rejected (closed at once) or queued, by {@link Builder#overflow(Overflow)}. {@link #stats()}
 * tells handler failures apart from peers that reset or close. Slow peers are bounded by the
 * transport configuration ({@link Builder#config(TransportConfig)}): {@link
 * TransportConfig#requestTimeout()} cuts off a peer that trickles a request, counted in {@link
 * SessionStats#timedOut()}.
 *
 * <p><b>Stopping.</b> {@link #close()} stops at once; {@link #close(Duration)} stops gracefully: it
 * stops accepting, lets the requests in flight finish within the grace period (sessions waiting
 * between requests end at once), then closes what is left.
 *
 * <p><b>Memory.</b> The sessions share an {@link InputBudget} ({@link Builder#inputBudget}; by default
 * one of its own of a quarter of the maximum heap, {@link InputBudget#defaultMaxBytes()}): their
 * buffered input and the arrays of their declared-length reads count against it. {@code readFully(n)}
 * allocates as the bytes arrive, never {@code n} bytes on the peer's word; a read that would take the
 * total over three quarters of the budget fails with an {@link IOException} naming the read and the
 * limit, and only its session ends. An {@link OutOfMemoryError} on the server's threads fails the
 * session concerned, is counted ({@link #outOfMemoryErrors()}), and the threads go on, so {@link
 * #close()} still works.
 *
 * <p><b>Hostile peers.</b> What peers cause at any rate is counted in {@link #stats()} and logged as
 * one summary line per kind at most every 10 s (the first at once, the rest at the next event after
 * the interval and at {@link #close()}), at WARN, never a line per connection: connections reset by
 * peers ({@link SessionStats#resets()}), timeouts ({@link SessionStats#timedOut()}), protocol errors
 * ({@link SessionStats#protocolErrors()}) and accepts that failed for lack of file descriptors ({@link
 * SessionStats#acceptFailures()}). After such a failed accept the server stops accepting for 100 ms
 * (connections wait in the kernel's accept queue), then tries again, until sessions that end have
 * freed descriptors. The default {@link Builder#maxSessions(int)} ({@link #defaultMaxSessions()})
 * keeps a server under its process's descriptor limit: connections beyond it are closed at once.
 * Accepting is bounded too: while {@link Builder#maxStartingSessions(int)} accepted TCP sessions (default
 * {@value #DEFAULT_MAX_STARTING_SESSIONS}) wait for their I/O thread to register them and for their handler
 * to start, the server accepts no more (connections wait in the kernel's accept queue), so that a
 * flood of connections neither piles up sessions on the heap nor holds up the I/O threads' turns.
 * Where the clients speak first, {@link Builder#clientSpeaksFirst(boolean)} makes a connection's session
 * only once its first byte arrived: a connection that resets or stays silent costs the I/O threads
 * nothing (it waits on the acceptor, at most {@link Builder#firstByteTimeout(Duration)}).
 *
 * <p><b>Filters and TLS.</b> {@link Builder#tls(SSLContext)} adds MINA's {@code SslFilter}; {@link
 * Builder#filter(String, IoFilter)} adds any MINA filter, in order, between the network and the
 * transport. Filters must deliver and accept {@code IoBuffer}s (no protocol codec: the handler reads
 * bytes and lines from its transport).
 *
 * <p><b>Threads.</b> Thread-safe. MINA threads only buffer data and wake flows. In continuation mode
 * the handler is created on a server-owned setup thread and runs on the scheduler's workers; in sync
 * mode it is created and runs on a thread of its own, started by the setup thread and ending with the
 * session. A TCP session's handler is started once its I/O thread has read it once (one turn of
 * that thread's loop after the session opened), and neither is started for a session the peer has
 * closed or reset by then: a connect-then-reset flood costs no thread and no flow. Lines about
 * peer events (resets, timeouts, protocol errors) are written on a thread of their own, which exists
 * while there are lines to write.
 * By default ({@link Builder#dispatch(Dispatch) Dispatch.ADAPTIVE}) a session flow woken by its own
 * input resumes on the I/O processor thread that read it if its runs are short and it has never blocked
 * in a pinned wait, and on a worker otherwise; with {@code IO_THREADS} always there, with {@code WORKERS}
 * never (see {@link Dispatch}). {@link #close()} blocks until the sessions are closed, except when a
 * session flow running on one of the server's I/O threads calls it (then the stop runs on a thread of
 * its own); it must not be called on another server's I/O thread.
 */
public final class FlowServer implements AutoCloseable {

    /** What happens to a session accepted while {@code maxSessions} handlers run. */
    public enum Overflow {
        /** Close it at once and count it in {@link SessionStats#rejected()}. The default. */
        REJECT,
        /** Keep it open, unserved, until a running session ends; its input is buffered meanwhile. */
        QUEUE
    }

    /**
     * The default of {@link Builder#maxSessions(int)} where the process's descriptor limit is unknown
     * (not a Unix JVM): 10,000. Elsewhere the default is {@link #defaultMaxSessions()}.
     */
    public static final int FALLBACK_MAX_SESSIONS = 10_000;

    /** The default of {@link Builder#maxStartingSessions(int)}: 256. */
    public static final int DEFAULT_MAX_STARTING_SESSIONS = 256;

    /** The default of {@link Builder#firstByteTimeout(Duration)}: 30 s. */
    public static final Duration DEFAULT_FIRST_BYTE_TIMEOUT = Duration.ofSeconds(30);

    /** Descriptors kept for the process's own use by {@link #defaultMaxSessions()}: at least 64. */
    private static final long MIN_RESERVED_DESCRIPTORS = 64;

    private static final Logger LOG = dev.flow.internal.Slf4j.logger(FlowServer.class);
    private static final System.Logger FALLBACK = System.getLogger(FlowServer.class.getName());
    private static final AtomicInteger SERVER_IDS = new AtomicInteger();
    private static final String PEER_EVENTS = "flow-peer-events";
    private static final long CLOSE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(30);
    /** What a handler class's constructor may take first: the session's transport, or it as a socket. */
    private static final Class<?>[] HANDLER_FIRST = {Transport.class, Socket.class};
    /** How a handler that cannot run as a flow runs in sync mode, for the error that refuses it. */
    private static final String SYNC_MODE = "FlowServer.builder().threadPerSession()";

    private final int id;
    private final FlowScheduler scheduler;
    private final Function<? super Transport, ?> factory;
    private final TaskClass taskClass;
    private final boolean runnable;
    private final int maxSessions;
    private final Overflow overflow;
    /** The failure handler, or {@code null} for {@link #report}. */
    private final BiConsumer<? super Transport, ? super Throwable> onFailure;
    private final IoAcceptor acceptor;
    /** The TCP acceptor, or {@code null} for in-VM pipes. */
    private final FlowSocketAcceptor tcp;
    /** The TCP processors, or {@code null} for in-VM pipes. */
    private final IoProcessors processors;
    private final ExecutorService setup;
    /** Writes the peer-event lines: a thread of its own, started by a line and ending 1 s after the last. */
    private final ThreadPoolExecutor lineWriter;
    private final Map<IoSession, Session> sessions = new ConcurrentHashMap<>();
    private final Queue<Session> pending = new ConcurrentLinkedQueue<>();
    private final Set<Thread> sessionThreads = ConcurrentHashMap.newKeySet();
    private final Object sessionsChanged = new Object();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong threads = new AtomicLong();
    private final LongAdder completed = new LongAdder();
    private final LongAdder closedByPeer = new LongAdder();
    private final LongAdder timedOut = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder stopped = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final AtomicBoolean schedulerClosedReported = new AtomicBoolean();
    private final EventLog events = new EventLog(FlowServer.class, this, EventLog.INTERVAL);
    private final EventLog.Counter resets = events.counter("connections reset or broken by peers");
    private final EventLog.Counter timeouts = events.counter("sessions timed out");
    private final EventLog.Counter protocolErrors = events.counter("sessions failed by a peer's protocol error");
    private final EventLog.Counter acceptFailures = events.counter(
            "accepts failed for lack of file descriptors, accepting paused " + FlowSocketAcceptor.BACKOFF.toMillis()
            + " ms after each (raise the limit, ulimit -n, or lower maxSessions)");
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Set when the sessions left are ended: from then on no handler starts. */
    private volatile boolean aborting;
    private final SocketAddress localAddress;
    private final InputBudget inputBudget;
    private final TransportIoHandler ioHandler;
    /** Sessions whose handler (or its creation) failed with an {@link OutOfMemoryError}. */
    private final AtomicLong outOfMemorySessions = new AtomicLong();

    private FlowServer(Builder b, SocketAddress bindAddress) throws IOException {
        this.id = SERVER_IDS.incrementAndGet();
        this.scheduler = b.threadPerSession ? null : b.scheduler;
        this.factory = b.factory;
        this.taskClass = b.taskClass;
        this.runnable = taskClass != null ? !Callable.class.isAssignableFrom(taskClass.type()) : b.runnable;
        this.maxSessions = b.maxSessions > 0 ? b.maxSessions : defaultMaxSessions();
        this.overflow = b.overflow;
        this.onFailure = b.onFailure;
        this.setup = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                daemonThread("flow-server-" + id + "-setup"));
        // peer events are recorded on the acceptor and I/O threads; their lines are written on a thread of
        // their own, which no session's start waits behind (a logger's first-time set-up once held the
        // setup thread 110-140 ms at the start of a reset flood)
        this.lineWriter = new ThreadPoolExecutor(0, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                daemonThread("flow-server-" + id + "-events"));
        events.writeLinesWith(lineWriter);
        if (bindAddress instanceof VmPipeAddress) {
            this.acceptor = new VmPipeAcceptor();
            this.processors = null;
            this.tcp = null;
        } else {
            Dispatch dispatch = b.threadPerSession ? Dispatch.WORKERS : b.dispatch;
            int ioThreads = b.ioProcessors == 0 && b.threadPerSession ? FlowNioProcessors.DEFAULT_SIZE : b.ioProcessors;
            this.processors = IoProcessors.create(dispatch, scheduler, ioThreads, "flow-server-" + id, false, true);
            FlowSocketAcceptor nio = new FlowSocketAcceptor(processors.pool(), b.maxStartingSessions, acceptFailures,
                    resets, b.clientSpeaksFirst ? new FirstByte(b.firstByteTimeout, b.config.idleTimeout()) : null);
            this.tcp = nio;
            nio.setReuseAddress(true);
            nio.setBacklog(b.backlog);
            nio.getSessionConfig().setTcpNoDelay(true);
            this.acceptor = nio;
        }
        ServiceStatistics.disable(acceptor);
        acceptor.setSessionDataStructureFactory(SessionData.INSTANCE);
        b.filters.applyTo(acceptor.getFilterChain());
        acceptor.getFilterChain().addLast(PEER_EVENTS, new PeerEvents());
        this.inputBudget = b.inputBudget != null ? b.inputBudget : new InputBudget(InputBudget.defaultMaxBytes());
        this.ioHandler = new TransportIoHandler(b.config, new Sessions(), inputBudget);
        acceptor.setHandler(ioHandler);
        acceptor.setCloseOnDeactivation(true);
        try {
            acceptor.bind(bindAddress);
        } catch (IOException | RuntimeException e) {
            acceptor.dispose(true);
            if (processors != null) {
                processors.close();
            }
            setup.shutdownNow();
            lineWriter.shutdownNow();
            throw e;
        }
        this.localAddress = acceptor.getLocalAddress();
    }

    /** Makes the one thread of a server-owned executor: a daemon named {@code name}. */
    private static ThreadFactory daemonThread(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /** Returns a builder; set at least a mode (scheduler or thread per session) and a handler. Not thread-safe. */
    public static Builder builder() {
        return new Builder();
    }

    /** The address the server is bound to, with the actual port when bound to port 0. */
    public SocketAddress localAddress() {
        return localAddress;
    }

    /** The input memory budget its sessions share: the one given to the builder, or the default. */
    public InputBudget inputBudget() {
        return inputBudget;
    }

    /**
     * The {@link OutOfMemoryError}s the server met: sessions whose handler, or its creation on the setup
     * thread, failed with one (each fails only its own session), errors while an I/O thread buffered a
     * session's input (that session fails) and errors that escaped an I/O thread's loop (the loop runs
     * again). Its threads go on and {@link #close()} still works. Errors on the scheduler's threads
     * are counted in its {@link dev.flow.FlowStats#outOfMemoryErrors()}.
     */
    public long outOfMemoryErrors() {
        return outOfMemorySessions.get() + ioHandler.outOfMemoryErrors()
                + (processors != null ? processors.outOfMemoryErrors() : 0);
    }

    /** The number of sessions open right now, running, queued or closing. */
    public int openSessions() {
        return sessions.size();
    }

    /** The number of sessions accepted since the server started. */
    public long acceptedSessions() {
        return accepted.get();
    }

    /** The number of TCP sessions accepted whose handler has not yet started (nor been queued, nor ended). */
    int startingSessions() {
        return tcp != null ? tcp.startingSessions() : 0;
    }

    /** The TCP connections accepted that wait for their first byte ({@link Builder#clientSpeaksFirst}). */
    int awaitingFirstByte() {
        return tcp != null ? tcp.waitingForFirstByte() : 0;
    }

    /** The TCP acceptor, or {@code null} for in-VM pipes (for tests). */
    FlowSocketAcceptor tcpAcceptor() {
        return tcp;
    }

    /**
     * The TCP sessions whose reader's wake-up is registered on their input ({@link MinaTransport#awaitsInput()}),
     * so that input arriving now wakes it on the I/O thread that reads it; for tests.
     */
    int sessionsAwaitingInput() {
        int n = 0;
        if (tcp != null) {
            for (IoSession session : tcp.getManagedSessions().values()) {
                MinaTransport t = MinaTransport.of(session);
                if (t != null && t.awaitsInput()) {
                    n++;
                }
            }
        }
        return n;
    }

    /** The most TCP sessions that were accepted and waited to start at once since the server started. */
    int startingSessionsPeak() {
        return tcp != null ? tcp.startingSessionsPeak() : 0;
    }

    /** A snapshot of the session counters. */
    public SessionStats stats() {
        return new SessionStats(accepted.get(), running.get(), pending.size(), completed.sum(), closedByPeer.sum(),
                timedOut.sum(), failed.sum(), stopped.sum(), rejected.sum(),
                resets.total(), protocolErrors.total(), acceptFailures.total());
    }

    /** Whether {@link #close()} has been called. */
    public boolean isClosed() {
        return closed.get();
    }

    /**
     * Stops at once, without a grace period: {@code close(Duration.ZERO)}. Stops accepting, closes
     * every open session and releases the acceptor's threads. Session handlers get an {@link
     * IOException} ("server ... stopped") at their next read, after any input already buffered;
     * writes to the closed session fail. In sync mode the session threads are also
     * interrupted, and this method waits for them to end. The scheduler is not closed. Blocks until
     * every session has closed (30 s at most, then logs a warning), except on one of this server's I/O
     * threads (see {@link #close(Duration)}); a second call does nothing. Must not be called on another
     * server's MINA I/O processor thread.
     */
    @Override
    public void close() {
        close(Duration.ZERO);
    }

    /**
     * Stops gracefully: stops accepting at once, lets the requests in flight finish for up to {@code
     * grace}, then closes what is left as {@link #close()} does.
     *
     * <p>In flight means: a handler that is working (computing, sleeping, writing) goes on; a read
     * inside a request (the request's first byte was read, and neither {@link Transport#endRequest()}
     * nor a write has ended it) waits for the rest of it as usual; a read that would have to wait
     * between requests, with nothing buffered, sees the end of the input instead ({@code readLine}
     * returns {@code null}, {@code read} returns -1), so the handler ends at a request boundary and its
     * session closes once its answer is written. A request already buffered is still read and served.
     * Sessions queued under {@link Overflow#QUEUE} and sessions accepted from now on are closed at once
     * ({@link SessionStats#stopped()}). When {@code grace} expires, the sessions still open are ended
     * as by {@link #close()} (a waiting read fails with "server ... stopped", sync-mode threads are
     * interrupted). The same in sync and continuation mode, with any {@link Dispatch}.
     *
     * <p>Called on one of this server's I/O threads (by a session flow resumed there, with {@link
     * Dispatch#ADAPTIVE} or {@link Dispatch#IO_THREADS}), it does not wait: the stop, which waits for that
     * thread, runs on a thread of its own, and the call returns {@code false} at once.
     *
     * @param grace how long sessions may take to finish; {@link Duration#ZERO} closes at once
     * @return {@code true} if every session had ended within the grace period (a clean stop): every
     *     handler has then returned and its end is counted in {@link #stats()} (and reported to {@link
     *     Builder#onFailure}) when this method returns; {@code false} if some had to be closed, if the
     *     server was already closed, or if called on one of its I/O threads
     * @throws IllegalArgumentException if {@code grace} is negative
     */
    public boolean close(Duration grace) {
        Objects.requireNonNull(grace, "grace");
        if (grace.isNegative()) {
            throw new IllegalArgumentException("grace: " + grace + " (expected: >= 0)");
        }
        if (!closed.compareAndSet(false, true)) {
            return false;
        }
        // A session flow resumed on this server's I/O thread (ADAPTIVE, IO_THREADS): the stop waits for
        // that very thread, so it runs on a thread of its own.
        if (processors != null && processors.stopsElsewhereIfOwnThread(() -> stop(grace), this + "-close", false)) {
            return false;
        }
        return stop(grace);
    }

    /** Stops the server (once {@link #closed} is set): {@link #close(Duration)} after its checks. */
    private boolean stop(Duration grace) {
        boolean clean = !grace.isZero() && drain(grace);
        abortAll();
        return clean;
    }

    /**
     * The graceful part of {@link #close(Duration)}: stops accepting, ends the sessions between
     * requests, lets the others finish; returns whether every session ended within {@code grace}.
     */
    private boolean drain(Duration grace) {
        long deadline = System.nanoTime() + saturatedNanos(grace);
        acceptor.setCloseOnDeactivation(false);
        acceptor.unbind();
        closeWaiting();
        for (Session s; (s = pending.poll()) != null; ) {
            end(s, Outcome.STOPPED, null);
        }
        for (Session s : sessions.values()) {
            s.transport.drain();
        }
        boolean interrupted = false;
        boolean clean;
        synchronized (sessionsChanged) {
            // Every handler returned and its end counted, in either mode: a session closes before its
            // handler's end is counted (and reported), so an empty session map alone does not say so.
            while (!(clean = sessions.isEmpty() && running.get() == 0)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                try {
                    sessionsChanged.wait(Math.max(1, Math.min(10, TimeUnit.NANOSECONDS.toMillis(left))));
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return clean;
    }

    /** Closes the TCP connections still waiting for their first byte (none once the acceptor is unbound). */
    private void closeWaiting() {
        if (tcp != null) {
            tcp.closeWaiting();
        }
    }

    /**
     * The first-byte rule ({@link Builder#clientSpeaksFirst}): connections wait at most {@code
     * timeout}, or the transport's {@code idleTimeout} if it is set and shorter, count against {@code
     * maxSessions} with the running handlers, and are counted in the stats and peer events like
     * sessions: one that ends before its first byte counts as {@linkplain SessionStats#accepted()
     * accepted} then, with its one outcome (a reset: {@code closedByPeer} and a reset event, as a
     * session's), so that every accepted connection still ends in exactly one outcome. Any thread.
     */
    private final class FirstByte implements FlowSocketAcceptor.FirstByteRule {
        private final long timeoutNanos;
        private final String timedOutText;

        FirstByte(Duration timeout, Duration idleTimeout) {
            boolean idle = !idleTimeout.isZero() && idleTimeout.compareTo(timeout) < 0;
            Duration t = idle ? idleTimeout : timeout;
            this.timeoutNanos = saturatedNanos(t);
            this.timedOutText = "no first byte within " + t.toMillis() + " ms (" + (idle ? "idleTimeout" : "firstByteTimeout") + ")";
        }

        @Override
        public long timeoutNanos() {
            return timeoutNanos;
        }

        @Override
        public boolean admits(int waiting) {
            return !closed.get() && (long) running.get() + waiting < maxSessions;
        }

        @Override
        public void timedOut(Object remote) {
            accepted.incrementAndGet();
            timedOut.increment();
            timeouts.record(remote, timedOutText);
        }

        @Override
        public void reset(Object remote, Object cause) {
            accepted.incrementAndGet();
            closedByPeer.increment();
            if (!closed.get()) {
                resets.record(remote, cause);
            }
        }

        @Override
        public void closedByPeer() {
            accepted.incrementAndGet();
            closedByPeer.increment();
        }

        @Override
        public void rejected() {
            accepted.incrementAndGet();
            rejected.increment();
        }

        @Override
        public void stopped() {
            accepted.incrementAndGet();
            stopped.increment();
        }
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE / 2;
        }
    }

    /** The immediate part of {@link #close(Duration)}: fails every session left and releases the threads. */
    private void abortAll() {
        aborting = true;
        // Fail the session flows before unbinding: unbinding closes the sessions, which would read as a
        // clean end of stream.
        // Threads remove themselves just before they end: take them now to join them below.
        List<Thread> handlerThreads = new ArrayList<>(sessionThreads);
        IOException stopping = new IOException("server " + localAddress + " stopped");
        List<CloseFuture> closing = new ArrayList<>();
        for (Session s : sessions.values()) {
            closing.add(s.transport.abort(stopping));
            Thread t = s.thread;
            if (t != null) {
                t.interrupt();
            }
        }
        for (Session s; (s = pending.poll()) != null; ) {
            end(s, Outcome.STOPPED, null);
        }
        acceptor.unbind();
        closeWaiting();
        long deadline = System.nanoTime() + CLOSE_WAIT_NANOS;
        for (CloseFuture f : closing) {
            // bounded: a stop must end even if a session cannot close (its processor failed)
            f.awaitUninterruptibly(Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
        acceptor.dispose(true);
        if (processors != null) {
            processors.close();
        }
        setup.shutdown();
        // A CloseFuture completes just before the handler hears sessionClosed; wait for those too, and
        // for the session threads of sync mode.
        boolean interrupted = false;
        synchronized (sessionsChanged) {
            while (!sessions.isEmpty() || (scheduler == null && running.get() > 0)) {
                if (System.nanoTime() - deadline >= 0) {
                    LOG.warn("{} sessions ({} handler threads) of {} did not end within {} s", sessions.size(),
                            running.get(), this, TimeUnit.NANOSECONDS.toSeconds(CLOSE_WAIT_NANOS));
                    break;
                }
                try {
                    sessionsChanged.wait(10);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        handlerThreads.addAll(sessionThreads);
        for (Thread t : handlerThreads) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                break;
            }
            try {
                t.join(left);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        events.flush();
        lineWriter.shutdown();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The default of {@link Builder#maxSessions(int)}: the process's limit on open file descriptors
     * ({@code ulimit -n}, read through {@code com.sun.management.UnixOperatingSystemMXBean}) less a
     * reserve for the process's own files, sockets and selectors of a tenth of the limit, at least 64
     * descriptors; at least 1. A limit of 20,000 gives 18,000; 1,024 gives 922; 65,536 gives 58,983.
     * Where the limit is unknown (not a Unix JVM), {@value #FALLBACK_MAX_SESSIONS}. Each TCP session
     * holds one descriptor, and a session beyond {@code maxSessions} is closed at once ({@link
     * Overflow#REJECT}), so under this default a server rejects connections rather than runs out of
     * descriptors.
     */
    public static int defaultMaxSessions() {
        long limit;
        try {
            OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
            if (!(os instanceof UnixOperatingSystemMXBean)) {
                return FALLBACK_MAX_SESSIONS;
            }
            limit = ((UnixOperatingSystemMXBean) os).getMaxFileDescriptorCount();
        } catch (LinkageError | RuntimeException e) {
            // a runtime without the jdk.management module, or a platform that cannot tell
            return FALLBACK_MAX_SESSIONS;
        }
        return limit > 0 ? maxSessionsFor(limit) : FALLBACK_MAX_SESSIONS;
    }

    /** {@link #defaultMaxSessions()} for a descriptor limit of {@code limit}. */
    static int maxSessionsFor(long limit) {
        long sessions = limit - Math.max(MIN_RESERVED_DESCRIPTORS, limit / 10);
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, sessions));
    }

    // ---------------------------------------------------------------- admission

    /** Admits {@code s} unless it has ended meanwhile, or the server has been closed (then it ends). */
    private void admitOpen(Session s) {
        if (s.ended.get()) {
            return;
        }
        if (closed.get()) {
            end(s, Outcome.STOPPED, null);
            return;
        }
        admit(s);
    }

    private void admit(Session s) {
        s.admitted = true;
        if (tryAcquire()) {
            launch(s);
        } else if (overflow == Overflow.QUEUE) {
            pending.add(s);
            startedOrEnded(s);
            drain();
        } else {
            end(s, Outcome.REJECTED, null);
        }
    }

    private boolean tryAcquire() {
        for (;;) {
            int n = running.get();
            if (n >= maxSessions) {
                return false;
            }
            if (running.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    /** Starts queued sessions while slots are free; safe to call from any thread at any time. */
    private void drain() {
        while (!pending.isEmpty() && tryAcquire()) {
            Session s = pending.poll();
            if (s == null) {
                releaseSlot();
                continue;
            }
            launch(s);
        }
    }

    private void releaseSlot() {
        running.decrementAndGet();
        synchronized (sessionsChanged) {
            sessionsChanged.notifyAll();
        }
    }

    /**
     * Hands an admitted session to the setup thread, which starts its handler: never on the MINA thread
     * that accepted it, so a flood of connections cannot hold up the I/O of the sessions that thread
     * serves (in sync mode, starting a thread per connection did).
     */
    private void launch(Session s) {
        s.launched = true;
        try {
            setup.execute(() -> start(s));
        } catch (RejectedExecutionException e) {
            end(s, Outcome.STOPPED, null);
        }
    }

    /**
     * On the setup thread: starts the session's handler, unless the server is stopping or the peer has
     * already closed or reset the connection (a connect-then-reset flood then costs no thread and no flow).
     */
    private void start(Session s) {
        startedOrEnded(s);
        if (aborting) {
            end(s, Outcome.STOPPED, null);
            return;
        }
        if (s.transport.session().isClosing()) {
            end(s, Outcome.CLOSED_BY_PEER, null);
            return;
        }
        if (scheduler == null) {
            Thread t = new Thread(() -> runOnThisThread(s), "flow-server-" + id + "-session-" + threads.incrementAndGet());
            t.setDaemon(true);
            s.thread = t;
            sessionThreads.add(t);
            try {
                t.start();
            } catch (OutOfMemoryError e) {
                sessionThreads.remove(t);
                s.thread = null;
                finish(s, e);
            }
            return;
        }
        startFlow(s);
    }

    // ---------------------------------------------------------------- running handlers

    private Object newTask(MinaTransport t) throws Exception {
        Object task = taskClass == null ? factory.apply(t)
                : taskClass.newTask(taskClass.first() == Socket.class ? FlowSocket.accepted(t) : t);
        if (task == null) {
            throw new NullPointerException("handler factory returned null for " + t);
        }
        if (!(runnable ? task instanceof Runnable : task instanceof Callable)) {
            throw new ClassCastException("handler task: " + task.getClass().getName() + " (expected: a "
                    + (runnable ? "Runnable" : "Callable") + ")");
        }
        return task;
    }

    /**
     * Sync mode: the session's own thread creates and runs the handler, unless the server began to stop
     * while this thread was being started. A stop interrupts the threads it finds in the sessions; one
     * whose {@code start} had checked {@link #aborting} just before the stop set it, but had not yet
     * recorded its thread, is not found there, and sees {@code aborting} here instead (both fields are
     * volatile: the stop writes {@code aborting} before it reads {@code s.thread}, the start writes
     * {@code s.thread} before this thread reads {@code aborting}).
     */
    private void runOnThisThread(Session s) {
        if (aborting) {
            s.thread = null;
            try {
                end(s, Outcome.STOPPED, null);
            } finally {
                sessionThreads.remove(Thread.currentThread());
            }
            return;
        }
        Throwable failure = null;
        try {
            Object task = newTask(s.transport);
            if (runnable) {
                ((Runnable) task).run();
            } else {
                ((Callable<?>) task).call();
            }
        } catch (Throwable e) {
            failure = e;
        }
        s.thread = null;
        try {
            finish(s, failure);
        } finally {
            sessionThreads.remove(Thread.currentThread());
        }
    }

    /** Continuation mode, on the setup thread: creates the task and submits it as the session's flow. */
    private void startFlow(Session s) {
        try {
            Object task = newTask(s.transport);
            if (!(task instanceof FlowTask) && TaskClass.suspends(scheduler)) {
                throw TaskClass.notInstrumented(task.getClass(), "handler task", SYNC_MODE);
            }
            FlowHandle<?> handle = runnable ? scheduler.start((Runnable) task) : scheduler.submit((Callable<?>) task);
            handle.toCompletionStage().whenComplete((result, failure) -> finish(s, failure));
        } catch (Throwable e) {
            // Also out of memory after the flow started: the session ends here, its flow at its next read.
            finish(s, e);
        }
    }

    /** Classifies how a launched session's handler ended and ends the session. */
    private void finish(Session s, Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof OutOfMemoryError) {
            outOfMemorySessions.incrementAndGet();
        }
        Outcome outcome;
        if (cause == null) {
            outcome = recorded(s.transport.recordedOutcome());
        } else if (closed.get()) {
            outcome = Outcome.STOPPED;
        } else if (scheduler != null && causedBy(cause, RejectedExecutionException.class, CancellationException.class)) {
            outcome = Outcome.STOPPED;
            if (schedulerClosedReported.compareAndSet(false, true)) {
                warn(this + ": " + scheduler + " was closed before the server (" + cause
                        + "); its sessions are closed without further report; close the server first");
            }
        } else if (causedBy(cause, SocketTimeoutException.class)) {
            // also wrapped: an idle timeout reaches the handler as a failed connection, and MINA then
            // reports the session closed as if by the peer
            outcome = Outcome.TIMED_OUT;
        } else if ((s.peerEnded || causedBy(cause, WriteToClosedSessionException.class)) && byPeer(cause)) {
            // MINA fails the queued writes of a peer that reset during a write before it reports the
            // session closed: the writer may see the failure first.
            outcome = Outcome.CLOSED_BY_PEER;
        } else {
            outcome = Outcome.FAILED;
        }
        end(s, outcome, cause);
    }

    /** The outcome of a handler that returned normally, after recording {@code recorded} (or nothing). */
    private static Outcome recorded(SessionOutcome recorded) {
        if (recorded == null) {
            return Outcome.COMPLETED;
        }
        switch (recorded) {
            case TIMED_OUT:
                return Outcome.TIMED_OUT;
            case PROTOCOL_ERROR:
                return Outcome.PROTOCOL_ERROR;
            case CLOSED_BY_PEER:
                return Outcome.CLOSED_BY_PEER;
            default:
                return Outcome.COMPLETED;
        }
    }

    /**
     * Whether {@code cause} or one of its causes is one of {@code types}: the scheduler refusing or
     * cancelling flows as it closes, a timeout, or MINA failing writes to a session closed under them.
     */
    private static boolean causedBy(Throwable cause, Class<?>... types) {
        for (Throwable c = cause; c != null; c = c.getCause()) {
            for (Class<?> t : types) {
                if (t.isInstance(c)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether {@code cause}, raised after the peer closed or reset the connection, is the peer's doing:
     * an I/O error, but not one of the server's own limits or timeouts.
     */
    private static boolean byPeer(Throwable cause) {
        return cause instanceof IOException && !(cause instanceof SocketTimeoutException)
                && !(cause instanceof LineTooLongException) && !(cause instanceof CharacterCodingException)
                && !(cause instanceof MemoryBudgetExceededException);
    }

    /**
     * Whether a handler's {@code failure} is a peer breaking the protocol: a too-long line, bad encoding,
     * a request that needs more than the input budget has left.
     */
    private static boolean byPeersProtocol(Throwable failure) {
        return causedBy(failure, LineTooLongException.class, CharacterCodingException.class,
                MemoryBudgetExceededException.class);
    }

    private void end(Session s, Outcome outcome, Throwable failure) {
        if (!s.ended.compareAndSet(false, true)) {
            return;
        }
        startedOrEnded(s);
        // Reported, then counted, then closed: a caller that reads the count, or a peer that sees the
        // close, finds the session's report already made.
        if (outcome == Outcome.FAILED) {
            reportFailure(s, failure);
        }
        switch (outcome) {
            case COMPLETED:
                completed.increment();
                break;
            case CLOSED_BY_PEER:
                closedByPeer.increment();
                break;
            case TIMED_OUT:
                timedOut.increment();
                timeouts.record(s.transport, failure);
                break;
            case STOPPED:
                stopped.increment();
                break;
            case PROTOCOL_ERROR:
                // Recorded by a handler that answered the peer's error itself: failed, not reported.
                failed.increment();
                protocolErrors.record(s.transport, null);
                break;
            case REJECTED:
                rejected.increment();
                break;
            default:
                failed.increment();
                if (byPeersProtocol(failure)) {
                    protocolErrors.record(s.transport, failure);
                }
        }
        s.transport.close();
        if (s.launched) {
            releaseSlot();
            drain();
        }
    }

    /** Hands a failed session to the failure handler (or the default report), which must not throw. */
    private void reportFailure(Session s, Throwable failure) {
        try {
            if (onFailure != null) {
                onFailure.accept(s.transport, failure);
            } else if (!byPeersProtocol(failure)) {
                report(s.transport, failure);
            }
        } catch (RuntimeException e) {
            warn("failure handler of " + this + " threw " + e);
        }
    }

    /**
     * Tells the acceptor that {@code s} no longer waits to start (its handler starts now, or it was
     * queued, or it ended), so that it may accept more connections.
     */
    private void startedOrEnded(Session s) {
        if (tcp != null) {
            tcp.started(s.transport.session());
        }
    }

    /** The default failure handler: SLF4J with the stack trace if bound, else one line on {@code System.Logger}. */
    private void report(Transport t, Throwable failure) {
        if (LOG.isWarnEnabled()) {
            LOG.warn("session {} of {} failed", t, this, failure);
            return;
        }
        StackTraceElement[] at = failure.getStackTrace();
        warn("session " + t + " of " + this + " failed: " + failure + (at.length > 0 ? " at " + at[0] : ""));
    }

    private static void warn(String line) {
        EventLog.warn(LOG, FALLBACK, line);
    }

    @Override
    public String toString() {
        return "FlowServer[" + localAddress + ", open=" + sessions.size() + (closed.get() ? ", closed" : "") + "]";
    }

    private enum Outcome { COMPLETED, CLOSED_BY_PEER, TIMED_OUT, FAILED, PROTOCOL_ERROR, STOPPED, REJECTED }

    /** A session's state: written by MINA threads, the setup thread and the handler's thread. */
    private static final class Session {
        final MinaTransport transport;
        final AtomicBoolean ended = new AtomicBoolean();
        volatile boolean peerEnded;
        /** Whether {@link #admit} has seen it; until then it waits for its I/O thread's next read. */
        volatile boolean admitted;
        volatile boolean launched;
        volatile Thread thread;

        Session(MinaTransport transport) {
            this.transport = transport;
        }
    }

    /** Session callbacks from MINA threads: track the session and admit it. */
    private final class Sessions implements TransportIoHandler.Listener {
        @Override
        public void opened(MinaTransport t) {
            Session s = new Session(t);
            sessions.put(t.session(), s);
            accepted.incrementAndGet();
            if (closed.get()) {
                end(s, Outcome.STOPPED, null);
                return;
            }
            FlowNioProcessors.FlowNioProcessor io = FlowNioProcessors.FlowNioProcessor.current();
            if (io != null) {
                // Admitted once its I/O thread has read it: a peer that connected and reset at once
                // (a reset flood) is then seen closing, and costs no thread and no flow (see start).
                io.afterNextRead(() -> admitOpen(s));
            } else {
                admitOpen(s);
            }
        }

        @Override
        public void closed(MinaTransport t) {
            // Counted before it leaves the map: a graceful close that sees the map empty sees its count.
            Session s = sessions.get(t.session());
            if (s != null && !s.admitted) {
                end(s, closed.get() ? Outcome.STOPPED : Outcome.CLOSED_BY_PEER, null);
            } else if (s != null && !s.launched && pending.remove(s)) {
                end(s, Outcome.CLOSED_BY_PEER, null);
            }
            sessions.remove(t.session());
            synchronized (sessionsChanged) {
                sessionsChanged.notifyAll();
            }
        }
    }

    /**
     * Last filter of every session: notes that the peer closed or reset the connection (before the
     * transport hears of it), so that the handler's resulting {@link IOException} is not counted as a
     * handler failure.
     */
    private final class PeerEvents extends IoFilterAdapter implements DirectWriter.Passive {
        private void peerEnded(IoSession session) {
            Session s = sessions.get(session);
            if (s != null && !s.ended.get() && !closed.get()) {
                s.peerEnded = true;
            }
        }

        @Override
        public void inputClosed(NextFilter next, IoSession session) throws Exception {
            peerEnded(session);
            next.inputClosed(session);
        }

        @Override
        public void exceptionCaught(NextFilter next, IoSession session, Throwable cause) {
            if (cause instanceof IOException) {
                peerEnded(session);
                if (!closed.get()) {
                    resets.record(session.getRemoteAddress(), cause);
                }
            }
            next.exceptionCaught(session, cause);
        }

        @Override
        public void sessionClosed(NextFilter next, IoSession session) throws Exception {
            peerEnded(session);
            next.sessionClosed(session);
        }
    }

    /** Builds and starts a {@link FlowServer}. Not thread-safe. */
    public static final class Builder {
        private FlowScheduler scheduler;
        private boolean threadPerSession;
        private Function<? super Transport, ?> factory;
        private TaskClass taskClass;
        private boolean runnable;
        private TransportConfig config = TransportConfig.DEFAULT;
        private int ioProcessors;
        private Dispatch dispatch = Dispatch.ADAPTIVE;
        private int backlog = 1024;
        private int maxStartingSessions = DEFAULT_MAX_STARTING_SESSIONS;
        /** {@code 0}: {@link #defaultMaxSessions()} at {@link #start}. */
        private int maxSessions;
        private Overflow overflow = Overflow.REJECT;
        private boolean clientSpeaksFirst;
        private Duration firstByteTimeout = DEFAULT_FIRST_BYTE_TIMEOUT;
        private BiConsumer<? super Transport, ? super Throwable> onFailure;
        private InputBudget inputBudget;
        private final FilterList filters = new FilterList();

        private Builder() {
        }

        /**
         * Continuation mode: each session's handler runs as a flow on {@code scheduler}. The server
         * does not close it. Replaces {@link #threadPerSession()}. With a policy other than {@link
         * dev.flow.SuspendPolicy#never()}, handler tasks must be instrumented (see {@link FlowServer}).
         */
        public Builder scheduler(FlowScheduler scheduler) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            this.threadPerSession = false;
            return this;
        }

        /**
         * Sync mode: each session's handler runs on a new platform thread started when the session is
         * accepted and ending with it; no thread is started up front and at most {@link
         * #maxSessions(int)} run at once. Replaces {@link #scheduler(FlowScheduler)}.
         */
        public Builder threadPerSession() {
            this.threadPerSession = true;
            this.scheduler = null;
            return this;
        }

        /**
         * The per-session handler, created by the server: {@code new handlerClass(transport,
         * extraArgs...)} through a public constructor whose first parameter accepts a {@link
         * Transport}, or else {@code new handlerClass(socket, extraArgs...)} through one whose first
         * parameter accepts a {@link Socket}: the session as a connected {@code java.net.Socket} (see {@link
         * FlowSocketFactory} for its semantics; its {@code soTimeout} starts as the configuration's read
         * timeout), so that a thread-per-connection handler written against sockets runs unchanged (TCP
         * only: {@link #start} refuses an in-VM address). The class implements {@link Callable} or {@link Runnable}. Checked here (class
         * and constructor) and at {@link #start} (in continuation mode the class must be
         * instrumented). The extra arguments are shared by all sessions. Replaces any other handler.
         *
         * @throws IllegalArgumentException naming the class if it has no such constructor
         */
        public Builder handler(Class<?> handlerClass, Object... extraArgs) {
            this.taskClass = TaskClass.of(handlerClass, HANDLER_FIRST, extraArgs);
            this.factory = null;
            return this;
        }

        /**
         * Like {@link #handler(Class, Object...)} with the class {@code className} loaded through {@code
         * loader}: with a {@code ContinuationClassLoader} that includes its package, the class and so
         * every session's handler are instrumented. The easy right way for continuation mode.
         *
         * @throws IllegalArgumentException if the class cannot be loaded or has no such constructor
         */
        public Builder handler(ClassLoader loader, String className, Object... extraArgs) {
            this.taskClass = TaskClass.load(loader, className, HANDLER_FIRST, extraArgs);
            this.factory = null;
            return this;
        }

        /**
         * A per-session factory: given the session's transport, returns the {@link Callable} the
         * server runs as the session's handler. Called once per session, on the server's setup thread
         * (continuation mode) or the session's thread (sync mode); it should only create the task. In
         * continuation mode the returned object itself must be instrumented (created through the
         * loader), not a lambda around it; prefer {@link #handler(ClassLoader, String, Object...)}.
         * Replaces any other handler.
         */
        public Builder handler(Function<? super Transport, ? extends Callable<?>> factory) {
            this.factory = Objects.requireNonNull(factory, "factory");
            this.taskClass = null;
            this.runnable = false;
            return this;
        }

        /** Like {@link #handler(Function)}, for tasks that are {@link Runnable}s. Replaces any other handler. */
        public Builder runnableHandler(Function<? super Transport, ? extends Runnable> factory) {
            this.factory = Objects.requireNonNull(factory, "factory");
            this.taskClass = null;
            this.runnable = true;
            return this;
        }

        /** Limits, timeouts and charset of the session transports; default {@link TransportConfig#DEFAULT}. */
        public Builder config(TransportConfig config) {
            Objects.requireNonNull(config, "config");
            MinaTransport.checkCharset(config.charset());
            this.config = config;
            return this;
        }

        /**
         * How many session handlers run at once, at least 1; default {@link #defaultMaxSessions()}, the
         * process's descriptor limit less a reserve (18,000 under a limit of 20,000). Sessions beyond are
         * rejected or queued, see {@link #overflow(Overflow)}; with {@link Overflow#QUEUE}, or a value above
         * the default, the process may run out of descriptors: the server then stops accepting for 100 ms
         * at a time until descriptors are free again (see {@link FlowServer}).
         */
        public Builder maxSessions(int maxSessions) {
            if (maxSessions < 1) {
                throw new IllegalArgumentException("maxSessions: " + maxSessions + " (expected: > 0)");
            }
            this.maxSessions = maxSessions;
            return this;
        }

        /**
         * Caps the input memory of all sessions of this server (and of any other server or transport
         * given the same budget): their buffered input and the arrays of their declared-length reads
         * ({@code readFully(n)}). At the cap, reading stops on every such session until the handlers
         * have read a quarter of it; a declared-length read that would take the total over three
         * quarters of the cap fails (see {@link InputBudget}). Default: a budget of its own of {@link
         * InputBudget#defaultMaxBytes()}, a quarter of the maximum heap.
         */
        public Builder inputBudget(InputBudget inputBudget) {
            this.inputBudget = Objects.requireNonNull(inputBudget, "inputBudget");
            return this;
        }

        /** What to do with sessions beyond {@link #maxSessions(int)}; default {@link Overflow#REJECT}. */
        public Builder overflow(Overflow overflow) {
            this.overflow = Objects.requireNonNull(overflow, "overflow");
            return this;
        }

        /**
         * Called once for each session whose handler failed on its own ({@link SessionStats#failed()}),
         * on the thread where the handler ended, before the session is counted and closed: once {@code
         * failed()} counts a session, or its peer sees the close, its report has been made. Must not
         * block. Default: a warning with the stack
         * trace through SLF4J when it logs warnings, else (no binding, or slf4j-nop) one line through
         * {@link System.Logger} (by default {@code java.util.logging}, printed on standard error), except
         * for a peer's protocol error (a too-long line, bad encoding), only counted in {@link
         * SessionStats#protocolErrors()} and summarized at most once per 10 s; pass {@code (t, e) -> { }}
         * to silence it.
         */
        public Builder onFailure(BiConsumer<? super Transport, ? super Throwable> onFailure) {
            this.onFailure = Objects.requireNonNull(onFailure, "onFailure");
            return this;
        }

        /**
         * Encrypts every session with TLS through MINA's {@code SslFilter} over {@code context}, as the
         * first filter. For client authentication, protocols or cipher suites, configure an {@code
         * SslFilter} yourself and add it as the first {@link #filter(String, IoFilter)} instead.
         */
        public Builder tls(SSLContext context) {
            filters.tls(context);
            return this;
        }

        /**
         * Adds a MINA filter after those added before (and after TLS), between the network and the
         * session transport. It must pass {@code IoBuffer}s through (a protocol codec would not).
         *
         * @throws IllegalArgumentException if {@code name} is taken
         */
        public Builder filter(String name, IoFilter filter) {
            filters.add(name, filter, PEER_EVENTS);
            return this;
        }

        /**
         * How many accepted TCP sessions may wait at once for their handler to start, at least 1;
         * default {@value FlowServer#DEFAULT_MAX_STARTING_SESSIONS}. A session waits from its accept until its I/O
         * thread has registered and read it once and the setup thread has started its handler (or queued
         * it under {@link Overflow#QUEUE}, or it ended). While this many wait, the server stops
         * accepting: further connections wait in the kernel's accept queue ({@link #backlog(int)}) until
         * half of them have started. This bounds the memory and the I/O threads' work that a burst or
         * flood of connections costs at once, so that established sessions keep being served.
         */
        public Builder maxStartingSessions(int maxStartingSessions) {
            if (maxStartingSessions < 1) {
                throw new IllegalArgumentException("maxStartingSessions: " + maxStartingSessions + " (expected: > 0)");
            }
            this.maxStartingSessions = maxStartingSessions;
            return this;
        }

        /**
         * Whether the protocol's clients speak first (HTTP, Redis), so that a TCP connection needs no
         * session until its first byte arrives; default {@code false}. When {@code true}, an accepted
         * connection waits on the acceptor, costing a descriptor and no I/O thread, session or
         * handler, until its first byte arrives; then its session is made and served as usual. One
         * that resets or closes before sending is closed there (counted as {@link
         * SessionStats#closedByPeer()}, a reset also in {@link SessionStats#resets()}), so a connect-then-reset
         * flood does not hold up the I/O threads' turns; one that sends nothing within {@link
         * #firstByteTimeout(Duration)} is closed ({@link SessionStats#timedOut()}); waiting connections
         * count against {@link #maxSessions(int)} with the running handlers, a connection beyond is
         * closed at once ({@link SessionStats#rejected()}); a stop closes them ({@link
         * SessionStats#stopped()}). Never set it for a protocol where the server speaks first (SMTP,
         * FTP, POP3, a greeting or banner): its handler would never start. In-VM pipes ignore it.
         */
        public Builder clientSpeaksFirst(boolean clientSpeaksFirst) {
            this.clientSpeaksFirst = clientSpeaksFirst;
            return this;
        }

        /**
         * How long an accepted connection may wait for its first byte under {@link
         * #clientSpeaksFirst(boolean)} before it is closed, more than zero; default {@link
         * FlowServer#DEFAULT_FIRST_BYTE_TIMEOUT} (30 s). The configuration's {@link
         * TransportConfig#idleTimeout()} applies instead where it is set and shorter (the connection
         * is idle until then). Ignored unless the clients speak first.
         */
        public Builder firstByteTimeout(Duration firstByteTimeout) {
            Objects.requireNonNull(firstByteTimeout, "firstByteTimeout");
            if (firstByteTimeout.isNegative() || firstByteTimeout.isZero()) {
                throw new IllegalArgumentException("firstByteTimeout: " + firstByteTimeout + " (expected: > 0)");
            }
            this.firstByteTimeout = firstByteTimeout;
            return this;
        }

        /**
         * Length of the TCP accept queue, 1 to 65535; default 1024. The kernel may cap it (Linux:
         * {@code net.core.somaxconn}).
         */
        public Builder backlog(int backlog) {
            if (backlog < 1 || backlog > 65535) {
                throw new IllegalArgumentException("backlog: " + backlog + " (expected: 1..65535)");
            }
            this.backlog = backlog;
            return this;
        }

        /**
         * Where session flows resume when their input arrives on a TCP I/O processor thread; default
         * {@link Dispatch#ADAPTIVE} (on the I/O thread for flows whose runs are short and that never blocked
         * in a pinned wait, on workers otherwise). {@link Dispatch#IO_THREADS} needs continuation mode: {@link #start} refuses it with
         * {@link #threadPerSession()}, where {@code ADAPTIVE} means {@code WORKERS}. In-VM pipes have no
         * I/O threads and ignore it. With {@code IO_THREADS} or {@code ADAPTIVE} a session's end, and so
         * {@link #onFailure}, may also run on an I/O thread: keep that callback short and non-blocking.
         */
        public Builder dispatch(Dispatch dispatch) {
            this.dispatch = Objects.requireNonNull(dispatch, "dispatch");
            return this;
        }

        /**
         * Number of MINA I/O processor threads for TCP, 1 to 256. Default: one per processor, whatever the
         * dispatch; MINA's default (processors + 1) with {@link #threadPerSession()}.
         */
        public Builder ioProcessors(int ioProcessors) {
            this.ioProcessors = IoProcessors.checkCount(ioProcessors);
            return this;
        }

        /**
         * Binds to {@code address} and starts accepting: an {@link InetSocketAddress} (port 0 picks a
         * free port) accepts TCP, a {@link VmPipeAddress} (port 0 picks a free one) accepts in-VM pipes.
         *
         * @throws IllegalStateException if the mode or the handler is missing, or in continuation mode
         *     if the handler class is not instrumented (the message names it and the fix)
         * @throws IOException if the address cannot be bound
         */
        public FlowServer start(SocketAddress address) throws IOException {
            Objects.requireNonNull(address, "address");
            if (!(address instanceof InetSocketAddress) && !(address instanceof VmPipeAddress)) {
                throw new IllegalArgumentException("address: " + address
                        + " (expected: an InetSocketAddress or a VmPipeAddress)");
            }
            if (scheduler == null && !threadPerSession) {
                throw new IllegalStateException("scheduler: null (expected: set with scheduler(...), or threadPerSession())");
            }
            if (threadPerSession && dispatch == Dispatch.IO_THREADS) {
                throw new IllegalStateException("dispatch: IO_THREADS (expected: WORKERS with threadPerSession(), "
                        + "whose handlers run on threads of their own; IO_THREADS needs scheduler(...))");
            }
            if (factory == null && taskClass == null) {
                throw new IllegalStateException("handler: null (expected: set with handler(...) or runnableHandler(...))");
            }
            if (taskClass != null && taskClass.first() == Socket.class && address instanceof VmPipeAddress) {
                throw new IllegalStateException("handler class: " + taskClass.type().getName() + " takes a Socket"
                        + " (expected: a TCP address to start on, not " + address + ")");
            }
            if (taskClass != null && scheduler != null && TaskClass.suspends(scheduler) && !taskClass.instrumented()) {
                throw TaskClass.notInstrumented(taskClass.type(), "handler class", SYNC_MODE);
            }
            return new FlowServer(this, address);
        }
    }
}
