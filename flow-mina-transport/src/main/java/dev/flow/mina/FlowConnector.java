package dev.flow.mina;

import dev.flow.Connector;
import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.Transport;
import dev.flow.TransportConfig;
import dev.flow.internal.Waits;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import javax.net.SocketFactory;
import javax.net.ssl.SSLContext;
import java.util.Objects;
import java.util.WeakHashMap;
import org.apache.mina.core.filterchain.IoFilter;
import org.apache.mina.core.future.CloseFuture;
import org.apache.mina.core.future.ConnectFuture;
import org.apache.mina.core.service.IoConnector;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.transport.socket.nio.NioSocketConnector;
import org.apache.mina.transport.vmpipe.VmPipeAddress;
import org.apache.mina.transport.vmpipe.VmPipeConnector;

/**
 * Opens client connections, over TCP ({@link InetSocketAddress}) or in-VM pipes ({@link
 * VmPipeAddress}), and returns them as {@link Transport}s.
 *
 * <p>Protocol code should receive a {@link Connector} from {@link #connector(SocketAddress)}: its
 * {@code connect()} blocks in sync mode and is a suspension point in continuation mode. Calls to
 * {@link #connect(SocketAddress)} itself are not suspension points (they block the worker). Code that
 * works with MINA futures directly can also write the wait itself, which the {@code
 * ContinuationClassLoader} turns into a suspension point:
 *
 * <pre>{@code
 * ConnectFuture f = connector.connectAsync(address);
 * f.awaitUninterruptibly();              // suspends the flow until the connection is established
 * Transport transport = connector.transportOf(f);
 * }</pre>
 *
 * <p><b>Client flows.</b> {@link #submit(FlowScheduler, Class, SocketAddress, Object...)} runs a client
 * class as a flow, created by Flow itself with a {@link Connector} to the address, so that the task the
 * scheduler runs is the (loaded, instrumented) client object and never an uninstrumented lambda around
 * it; in continuation mode a class that is not instrumented is refused with an error naming it.
 *
 * <p><b>Sockets.</b> {@link #socketFactory()} gives {@code java.net.Socket}s over this connector's
 * connections, for existing blocking code and client libraries (see {@link FlowSocketFactory}).
 *
 * <p><b>Filters and TLS.</b> {@link Builder#tls(SSLContext)} adds MINA's {@code SslFilter} (client mode);
 * {@link Builder#filter(String, IoFilter)} adds any MINA filter that passes {@code IoBuffer}s through.
 *
 * <p><b>Threads.</b> Thread-safe. One MINA handler is shared by all connections; it attaches a
 * {@link MinaTransport} to each session, buffers data and completes awaitables on MINA threads, and
 * with the default {@link Dispatch#ADAPTIVE} its I/O threads also resume the client flows woken by their
 * input whose runs are short and that never blocked in a pinned wait, of whichever scheduler ({@link
 * Builder#dispatch(Dispatch)}). The MINA connectors (and their I/O threads) are created on first use per
 * address type and released by {@link #close()}, which must not be called on another connector's or a
 * server's MINA I/O processor thread.
 *
 * <p><b>Reads.</b> Over TCP without TLS or filters of the user's, a read that finds nothing buffered first
 * reads the socket on the reading thread, as a blocking socket's reader does, and waits only if the kernel
 * has nothing: a peer on the same machine often answers before the client reads. The system property
 * {@code flow.mina.directReads=false} leaves every read to the I/O threads.
 */
public final class FlowConnector implements AutoCloseable {

    static {
        // Binds SLF4J (quietly when no provider is present) before MINA asks it for a logger.
        dev.flow.internal.Slf4j.provided();
    }

    private final TransportConfig config;
    private final Duration connectTimeout;
    private final int ioProcessors;
    private final boolean daemon;
    private final Dispatch dispatch;
    private final FlowScheduler dispatchScheduler;
    private final TransportIoHandler handler;
    private final FilterList filters;
    private final Map<ConnectFuture, SocketAddress> targets = Collections.synchronizedMap(new WeakHashMap<>());

    private NioSocketConnector tcp;
    private IoProcessors tcpProcessors;
    /** The connecting thread's pool of a daemon connector, which MINA does not shut down itself. */
    private java.util.concurrent.ExecutorService connectThreads;
    private VmPipeConnector vmPipe;
    private boolean closed;

    private FlowConnector(Builder b) {
        this.config = b.config;
        this.connectTimeout = b.connectTimeout;
        this.ioProcessors = b.ioProcessors;
        this.daemon = b.daemon;
        this.dispatch = b.dispatch;
        this.dispatchScheduler = b.dispatchScheduler;
        this.filters = new FilterList(b.filters);
        this.handler = new TransportIoHandler(config, null);
    }

    /** Returns a connector with the default configuration. */
    public static FlowConnector create() {
        return builder().build();
    }

    /** Returns a builder. Not thread-safe. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns a {@link Connector} that opens transports to {@code address} through this connector.
     * Protocol code that only knows {@link Connector} calls {@code connect()}: in sync mode it blocks
     * like {@link #connect(SocketAddress)}; in code loaded through the {@code ContinuationClassLoader}
     * it is a suspension point (the flow waits for MINA's {@code ConnectFuture} without holding a
     * thread). The returned object is thread-safe and cheap; connections still belong to this
     * connector and are closed by {@link #close()}.
     *
     * @throws IllegalArgumentException if {@code address} is neither an {@link InetSocketAddress} nor
     *     a {@link VmPipeAddress}
     */
    public Connector connector(SocketAddress address) {
        checkAddress(address);
        return new MinaConnector(this, address);
    }

    /**
     * Runs a client flow on {@code scheduler}: creates {@code new clientClass(connector, extraArgs...)}
     * through its public constructor whose first parameter accepts a {@link Connector} (given one to
     * {@code address}, see {@link #connector(SocketAddress)}) and submits that object. Load the class
     * through a {@code ContinuationClassLoader} ({@code loader.loadClass(name)}) for continuation mode.
     *
     * @throws IllegalArgumentException naming the class if it is not a public {@link Callable} with such
     *     a constructor
     * @throws IllegalStateException if the scheduler's flows can suspend (any policy but {@code
     *     never()}) and the class is not instrumented: it would hold a thread for its whole life instead of
     *     suspending
     */
    public <T> FlowHandle<T> submit(FlowScheduler scheduler, Class<? extends Callable<T>> clientClass,
            SocketAddress address, Object... extraArgs) throws Exception {
        Objects.requireNonNull(scheduler, "scheduler");
        TaskClass c = TaskClass.of(clientClass, Connector.class, extraArgs);
        if (TaskClass.suspends(scheduler) && !c.instrumented()) {
            throw TaskClass.notInstrumented(clientClass, "client class",
                    "its call() on a plain thread");
        }
        @SuppressWarnings("unchecked")
        Callable<T> task = (Callable<T>) c.newTask(connector(address));
        return scheduler.submit(task);
    }

    /**
     * Starts connecting to {@code address} and returns MINA's future at once; never blocks. Await it
     * (in instrumented code {@code future.awaitUninterruptibly()} suspends the flow) and pass it to
     * {@link #transportOf(ConnectFuture)}.
     *
     * @throws IllegalArgumentException if {@code address} is neither an {@link InetSocketAddress} nor
     *     a {@link VmPipeAddress}
     * @throws IllegalStateException if the connector is closed
     */
    public ConnectFuture connectAsync(SocketAddress address) {
        ConnectFuture f = connectorFor(address).connect(address);
        targets.put(f, address);
        return f;
    }

    /**
     * Returns the transport of a completed connection attempt.
     *
     * @throws ConnectException if the attempt failed or was canceled; the message names the address
     * @throws IllegalStateException if {@code future} has not completed yet
     */
    public Transport transportOf(ConnectFuture future) throws IOException {
        Objects.requireNonNull(future, "future");
        if (!future.isDone()) {
            throw new IllegalStateException("future: " + future + " (expected: a completed ConnectFuture; await it first)");
        }
        SocketAddress address = targets.get(future);
        if (future.isCanceled()) {
            throw new ConnectException("connect to " + address + " was canceled");
        }
        Throwable cause = future.getException();
        if (cause != null) {
            ConnectException e = new ConnectException("cannot connect to " + address + ": " + cause.getMessage());
            e.initCause(cause);
            throw e;
        }
        IoSession session = future.getSession();
        MinaTransport t = MinaTransport.of(session);
        return t != null ? t : MinaTransport.attach(session, config);
    }

    /**
     * Connects to {@code address} and returns the transport, blocking the calling thread until the
     * connection is established or fails (after the connect timeout at most). Not a suspension point:
     * in continuation mode use {@link #connectAsync(SocketAddress)}.
     *
     * @throws ConnectException if the connection cannot be established; the message names the address
     * @throws InterruptedIOException if the thread is interrupted while waiting
     */
    public Transport connect(SocketAddress address) throws IOException {
        ConnectFuture f = connectAsync(address);
        if (!Waits.block(new IoFutureAwaitable(f), 0)) {
            abandon(f);
            throw new InterruptedIOException("interrupted while connecting to " + address);
        }
        return transportOf(f);
    }

    /** Gives up an attempt: cancels it, and closes its session if it connected (now or later). */
    static void abandon(ConnectFuture f) {
        f.cancel();
        f.addListener(done -> {
            if (((ConnectFuture) done).isConnected()) {
                ((ConnectFuture) done).getSession().closeNow();
            }
        });
    }

    /**
     * Starts a TCP connection from {@code local} (an address and port to bind, port 0 for any) to {@code
     * remote}; see {@link #connectAsync(SocketAddress)}.
     */
    ConnectFuture connectAsync(InetSocketAddress remote, InetSocketAddress local) {
        ConnectFuture f = local == null ? connectorFor(remote).connect(remote) : connectorFor(remote).connect(remote, local);
        targets.put(f, remote);
        return f;
    }

    /**
     * Returns a {@link SocketFactory} whose sockets connect over TCP through this connector: their {@code
     * connect}, reads, writes and flushes are suspension points in code loaded through the {@code
     * ContinuationClassLoader} and block elsewhere, as do the factory's connecting {@code createSocket}
     * forms. See {@link FlowSocketFactory} for what the sockets honour. The connections belong to this
     * connector and are closed by {@link #close()}. Thread-safe.
     */
    public SocketFactory socketFactory() {
        return new FlowSocketFactory(this);
    }

    /** The number of connections open right now. */
    public synchronized int openSessions() {
        int n = 0;
        if (tcp != null) {
            n += tcp.getManagedSessionCount();
        }
        if (vmPipe != null) {
            n += vmPipe.getManagedSessionCount();
        }
        return n;
    }

    /** The configuration of the transports this connector creates. */
    public TransportConfig config() {
        return config;
    }

    /**
     * Closes every connection of this connector and releases its MINA threads. Blocks until the
     * sessions are closed; a second call does nothing. Called by a flow running on one of this
     * connector's own I/O threads (see {@link Builder#dispatch(Dispatch)}), which the close waits for, it
     * closes on a thread of its own and returns at once. Must not be called on another MINA I/O thread.
     */
    @Override
    public void close() {
        List<IoConnector> connectors = new ArrayList<>(2);
        IoProcessors own;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            if (tcp != null) {
                connectors.add(tcp);
            }
            if (vmPipe != null) {
                connectors.add(vmPipe);
            }
            own = tcpProcessors;
        }
        if (own == null || !own.stopsElsewhereIfOwnThread(() -> release(connectors), this + "-close", daemon)) {
            release(connectors);
        }
    }

    /** Closes the sessions of {@code connectors}, disposes them, then releases the threads. */
    private void release(List<IoConnector> connectors) {
        for (IoConnector c : connectors) {
            List<CloseFuture> closing = new ArrayList<>();
            for (IoSession s : c.getManagedSessions().values()) {
                closing.add(s.closeNow());
            }
            for (CloseFuture f : closing) {
                f.awaitUninterruptibly();
            }
            c.dispose(true);
        }
        IoProcessors p;
        java.util.concurrent.ExecutorService connecting;
        synchronized (this) {
            p = tcpProcessors;
            connecting = connectThreads;
        }
        if (p != null) {
            p.close();
        }
        if (connecting != null) {
            connecting.shutdown();
        }
    }

    private synchronized IoConnector connectorFor(SocketAddress address) {
        checkAddress(address);
        if (closed) {
            throw new IllegalStateException("connector is closed");
        }
        if (address instanceof VmPipeAddress) {
            if (vmPipe == null) {
                vmPipe = configure(new VmPipeConnector());
            }
            return vmPipe;
        }
        if (tcp == null) {
            String name = daemon ? "flow-connector-daemon" : "flow-connector";
            tcpProcessors = IoProcessors.create(dispatch, dispatchScheduler, ioProcessors, name, daemon, false);
            NioSocketConnector c;
            if (daemon) {
                connectThreads = IoProcessors.daemonThreads(name);
                c = new NioSocketConnector(connectThreads, tcpProcessors.pool());
            } else {
                c = new NioSocketConnector(tcpProcessors.pool());
            }
            c.getSessionConfig().setTcpNoDelay(true);
            tcp = configure(c);
        }
        return tcp;
    }

    private static void checkAddress(SocketAddress address) {
        Objects.requireNonNull(address, "address");
        if (!(address instanceof InetSocketAddress) && !(address instanceof VmPipeAddress)) {
            throw new IllegalArgumentException("address: " + address
                    + " (expected: an InetSocketAddress or a VmPipeAddress)");
        }
    }

    private <C extends IoConnector> C configure(C c) {
        ServiceStatistics.disable(c);
        c.setSessionDataStructureFactory(SessionData.INSTANCE);
        filters.applyTo(c.getFilterChain());
        c.setHandler(handler);
        if (connectTimeout != null) {
            c.setConnectTimeoutMillis(connectTimeout.toMillis());
        }
        return c;
    }

    @Override
    public synchronized String toString() {
        return "FlowConnector[open=" + openSessions() + (closed ? ", closed" : "") + "]";
    }

    /** Builds a {@link FlowConnector}. Not thread-safe. */
    public static final class Builder {
        private TransportConfig config = TransportConfig.DEFAULT;
        private Duration connectTimeout;
        private int ioProcessors;
        private boolean daemon;
        private Dispatch dispatch = Dispatch.ADAPTIVE;
        /** The scheduler whose flows the I/O threads run, or {@code null} for every scheduler's. */
        private FlowScheduler dispatchScheduler;
        private final FilterList filters = new FilterList();

        private Builder() {
        }

        /**
         * Encrypts every connection with TLS through MINA's {@code SslFilter} over {@code context}, as
         * the first filter; the server is authenticated by the context's trust managers. To check the
         * host name or choose protocols, configure an {@code SslFilter} yourself and add it as the first
         * {@link #filter(String, IoFilter)} instead.
         */
        public Builder tls(SSLContext context) {
            filters.tls(context);
            return this;
        }

        /**
         * Adds a MINA filter after those added before (and after TLS) to every connection. It must pass
         * {@code IoBuffer}s through (a protocol codec would not).
         *
         * @throws IllegalArgumentException if {@code name} is taken
         */
        public Builder filter(String name, IoFilter filter) {
            filters.add(name, filter);
            return this;
        }

        /** Limits, timeouts and charset of the transports; default {@link TransportConfig#DEFAULT}. */
        public Builder config(TransportConfig config) {
            Objects.requireNonNull(config, "config");
            MinaTransport.checkCharset(config.charset());
            this.config = config;
            return this;
        }

        /** How long a TCP connection attempt may take; default MINA's (60 s). Must be at least 1 ms. */
        public Builder connectTimeout(Duration connectTimeout) {
            Objects.requireNonNull(connectTimeout, "connectTimeout");
            if (connectTimeout.toMillis() < 1) {
                throw new IllegalArgumentException("connectTimeout: " + connectTimeout + " (expected: >= 1 ms)");
            }
            this.connectTimeout = connectTimeout;
            return this;
        }

        /**
         * Where flows resume when the input they wait for on one of this connector's TCP connections
         * arrives on its I/O processor thread, whichever scheduler they belong to; default {@link
         * Dispatch#ADAPTIVE}. A connector's connections may serve flows of several schedulers: its I/O
         * threads run each flow on its own scheduler's behalf (counted, timed, stopped by it). In-VM pipes
         * ignore it.
         */
        public Builder dispatch(Dispatch dispatch) {
            this.dispatch = Objects.requireNonNull(dispatch, "dispatch");
            this.dispatchScheduler = null;
            return this;
        }

        /**
         * Like {@link #dispatch(Dispatch)}, but only flows of {@code scheduler} may resume on the I/O
         * threads with {@link Dispatch#IO_THREADS} and {@link Dispatch#ADAPTIVE}; flows of other
         * schedulers (and plain threads) using its connections are woken as with {@code WORKERS}.
         *
         * @param scheduler the scheduler for {@code IO_THREADS} and {@code ADAPTIVE}; ignored (may be {@code
         *     null}) for {@code WORKERS}
         * @throws IllegalArgumentException if {@code dispatch} is not {@code WORKERS} and {@code scheduler} is null
         */
        public Builder dispatch(Dispatch dispatch, FlowScheduler scheduler) {
            Objects.requireNonNull(dispatch, "dispatch");
            if (dispatch != Dispatch.WORKERS && scheduler == null) {
                throw new IllegalArgumentException("scheduler: null (expected: the scheduler whose flows the I/O "
                        + "threads run, with Dispatch." + dispatch + ")");
            }
            this.dispatch = dispatch;
            this.dispatchScheduler = dispatch != Dispatch.WORKERS ? scheduler : null;
            return this;
        }

        /**
         * Number of MINA I/O processor threads for TCP, 1 to 256. Default: one per processor, whatever the
         * dispatch.
         */
        public Builder ioProcessors(int ioProcessors) {
            this.ioProcessors = IoProcessors.checkCount(ioProcessors);
            return this;
        }

        /**
         * Whether the connector's MINA threads (I/O processors and the connecting thread) are daemon
         * threads, named {@code flow-connector-daemon-*}, which do not keep the JVM running while connections
         * are open; default {@code false}.
         */
        public Builder daemonThreads(boolean daemon) {
            this.daemon = daemon;
            return this;
        }

        /** Creates the connector; its MINA threads start with the first connection. */
        public FlowConnector build() {
            return new FlowConnector(this);
        }
    }
}
