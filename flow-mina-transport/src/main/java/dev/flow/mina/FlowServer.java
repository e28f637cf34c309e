package dev.flow.mina;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.Transport;
import dev.flow.TransportConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.apache.mina.core.future.CloseFuture;
import org.apache.mina.core.service.IoAcceptor;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.transport.socket.nio.NioSocketAcceptor;
import org.apache.mina.transport.vmpipe.VmPipeAcceptor;
import org.apache.mina.transport.vmpipe.VmPipeAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Accepts TCP or in-VM ({@link VmPipeAddress}) sessions and runs one flow per session on a {@link
 * FlowScheduler}.
 *
 * <p>For each session the handler factory is given the session's {@link Transport} and returns the
 * task ({@link Callable} or {@link Runnable}) that the server submits to the scheduler. In
 * continuation mode the factory returns an object created through the {@code
 * ContinuationClassLoader}, so the task's blocking calls suspend; in sync mode it returns a plain task
 * and each session holds a worker while it blocks. When the flow ends, normally or not, the session is
 * closed; a failing flow affects no other session.
 *
 * <pre>{@code
 * try (FlowServer server = FlowServer.builder()
 *         .scheduler(scheduler)
 *         .handler(transport -> new EchoHandler(transport))
 *         .start(new InetSocketAddress("127.0.0.1", 0))) {
 *     SocketAddress address = server.localAddress();
 *     ...
 * }
 * }</pre>
 *
 * <p><b>Threads.</b> Thread-safe. MINA threads only buffer data and wake flows; the handler factory
 * runs on a server-owned setup thread and the flows on the scheduler's workers, never on a MINA I/O
 * processor. {@link #close()} blocks until the sessions are closed and must not be called on a MINA
 * I/O processor thread.
 */
public final class FlowServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(FlowServer.class);
    private static final AtomicInteger SERVER_IDS = new AtomicInteger();
    private static final long CLOSE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final FlowScheduler scheduler;
    private final Function<? super Transport, ?> factory;
    private final boolean runnable;
    private final IoAcceptor acceptor;
    private final ExecutorService setup;
    private final Set<IoSession> sessions = ConcurrentHashMap.newKeySet();
    private final Object sessionsChanged = new Object();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final SocketAddress localAddress;

    private FlowServer(Builder b, SocketAddress bindAddress) throws IOException {
        this.scheduler = b.scheduler;
        this.factory = b.factory;
        this.runnable = b.runnable;
        int id = SERVER_IDS.incrementAndGet();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(r, "flow-server-" + id + "-setup");
                    t.setDaemon(true);
                    return t;
                });
        this.setup = pool;
        TransportIoHandler handler = new TransportIoHandler(b.config, new Sessions());
        if (bindAddress instanceof VmPipeAddress) {
            this.acceptor = new VmPipeAcceptor();
        } else {
            NioSocketAcceptor nio = b.ioProcessors > 0 ? new NioSocketAcceptor(b.ioProcessors) : new NioSocketAcceptor();
            nio.setReuseAddress(true);
            nio.setBacklog(b.backlog);
            nio.getSessionConfig().setTcpNoDelay(true);
            this.acceptor = nio;
        }
        acceptor.setHandler(handler);
        acceptor.setCloseOnDeactivation(true);
        try {
            acceptor.bind(bindAddress);
        } catch (IOException | RuntimeException e) {
            acceptor.dispose(true);
            setup.shutdownNow();
            throw e;
        }
        this.localAddress = acceptor.getLocalAddress();
    }

    /** Returns a builder; set at least the scheduler and a handler factory. Not thread-safe. */
    public static Builder builder() {
        return new Builder();
    }

    /** The address the server is bound to, with the actual port when bound to port 0. */
    public SocketAddress localAddress() {
        return localAddress;
    }

    /** The number of sessions open right now. */
    public int openSessions() {
        return sessions.size();
    }

    /** The number of sessions accepted since the server started. */
    public long acceptedSessions() {
        return accepted.get();
    }

    /** Whether {@link #close()} has been called. */
    public boolean isClosed() {
        return closed.get();
    }

    /**
     * Stops accepting, closes every open session and releases the acceptor's threads. Session flows
     * get an {@link IOException} ("server ... stopped") at their next read, after any input already
     * buffered, and at their next write; the scheduler is not closed. Blocks until every session has closed; a second call does nothing. Must not be
     * called on a MINA I/O processor thread.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        // Fail the session flows before unbinding: unbinding closes the sessions, which would read as a
        // clean end of stream.
        IOException stopped = new IOException("server " + localAddress + " stopped");
        List<CloseFuture> closing = new ArrayList<>();
        for (IoSession s : sessions) {
            MinaTransport t = MinaTransport.of(s);
            closing.add(t != null ? t.abort(stopped) : s.closeNow());
        }
        acceptor.unbind();
        for (CloseFuture f : closing) {
            f.awaitUninterruptibly();
        }
        acceptor.dispose(true);
        setup.shutdown();
        // A CloseFuture completes just before the handler hears sessionClosed; wait for those too.
        long deadline = System.nanoTime() + CLOSE_WAIT_NANOS;
        boolean interrupted = false;
        synchronized (sessionsChanged) {
            while (!sessions.isEmpty()) {
                if (System.nanoTime() - deadline >= 0) {
                    LOG.warn("{} sessions of {} did not report closing within {} s", sessions.size(), this,
                            TimeUnit.NANOSECONDS.toSeconds(CLOSE_WAIT_NANOS));
                    break;
                }
                try {
                    sessionsChanged.wait(10);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void startFlow(MinaTransport t) {
        if (closed.get()) {
            t.close();
            return;
        }
        FlowHandle<?> handle;
        try {
            Object task = factory.apply(t);
            if (task == null) {
                throw new NullPointerException("handler factory returned null for " + t);
            }
            handle = runnable ? scheduler.start((Runnable) task) : scheduler.submit((Callable<?>) task);
        } catch (RuntimeException | Error e) {
            LOG.warn("cannot start a flow for {}; closing the session", t, e);
            t.close();
            return;
        }
        handle.toCompletionStage().whenComplete((result, failure) -> {
            t.close();
            if (failure != null) {
                Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                        ? failure.getCause() : failure;
                if (cause instanceof IOException) {
                    LOG.debug("flow for {} ended with {}", t, cause.toString());
                } else {
                    LOG.warn("flow for {} failed", t, cause);
                }
            }
        });
    }

    @Override
    public String toString() {
        return "FlowServer[" + localAddress + ", open=" + sessions.size() + (closed.get() ? ", closed" : "") + "]";
    }

    /** Session callbacks from MINA threads: track the session and hand the flow start to the setup thread. */
    private final class Sessions implements TransportIoHandler.Listener {
        @Override
        public void opened(MinaTransport t) {
            sessions.add(t.session());
            accepted.incrementAndGet();
            if (closed.get()) {
                t.close();
                return;
            }
            try {
                setup.execute(() -> startFlow(t));
            } catch (RejectedExecutionException e) {
                t.close();
            }
        }

        @Override
        public void closed(MinaTransport t) {
            sessions.remove(t.session());
            synchronized (sessionsChanged) {
                sessionsChanged.notifyAll();
            }
        }
    }

    /** Builds and starts a {@link FlowServer}. Not thread-safe. */
    public static final class Builder {
        private FlowScheduler scheduler;
        private Function<? super Transport, ?> factory;
        private boolean runnable;
        private TransportConfig config = TransportConfig.DEFAULT;
        private int ioProcessors;
        private int backlog = 1024;

        private Builder() {
        }

        /** The scheduler that runs the session flows; required. The server does not close it. */
        public Builder scheduler(FlowScheduler scheduler) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            return this;
        }

        /**
         * The per-session handler: given the session's transport, returns the {@link Callable} the
         * server submits as the session's flow. Called on the server's setup thread, once per
         * session; it should only create the task. Replaces any {@link #runnableHandler}.
         */
        public Builder handler(Function<? super Transport, ? extends Callable<?>> factory) {
            this.factory = Objects.requireNonNull(factory, "factory");
            this.runnable = false;
            return this;
        }

        /** Like {@link #handler}, for tasks that are {@link Runnable}s. Replaces any {@link #handler}. */
        public Builder runnableHandler(Function<? super Transport, ? extends Runnable> factory) {
            this.factory = Objects.requireNonNull(factory, "factory");
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

        /** Number of MINA I/O processor threads for TCP, 1 to 256; default MINA's (processors + 1). */
        public Builder ioProcessors(int ioProcessors) {
            if (ioProcessors < 1 || ioProcessors > 256) {
                throw new IllegalArgumentException("ioProcessors: " + ioProcessors + " (expected: 1..256)");
            }
            this.ioProcessors = ioProcessors;
            return this;
        }

        /**
         * Binds to {@code address} and starts accepting: an {@link InetSocketAddress} (port 0 picks a
         * free port) accepts TCP, a {@link VmPipeAddress} (port 0 picks a free one) accepts in-VM pipes.
         *
         * @throws IllegalStateException if the scheduler or the handler is missing
         * @throws IOException if the address cannot be bound
         */
        public FlowServer start(SocketAddress address) throws IOException {
            Objects.requireNonNull(address, "address");
            if (!(address instanceof InetSocketAddress) && !(address instanceof VmPipeAddress)) {
                throw new IllegalArgumentException("address: " + address
                        + " (expected: an InetSocketAddress or a VmPipeAddress)");
            }
            if (scheduler == null) {
                throw new IllegalStateException("scheduler: null (expected: set with scheduler(...))");
            }
            if (factory == null) {
                throw new IllegalStateException("handler: null (expected: set with handler(...) or runnableHandler(...))");
            }
            return new FlowServer(this, address);
        }
    }
}
