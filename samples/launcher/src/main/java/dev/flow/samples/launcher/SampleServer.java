package dev.flow.samples.launcher;

import dev.flow.FlowScheduler;
import dev.flow.FlowStats;
import dev.flow.internal.Instrumented;
import dev.flow.mina.FlowServer;
import dev.flow.mina.SessionStats;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A running sample server: a {@link FlowServer} on 127.0.0.1 whose sessions run the protocol's
 * handler, loaded normally on a thread per session (sync mode) or as flows on a few workers
 * (continuation mode; through the loader route strict by default, {@code --strict false}: a flow that
 * cannot suspend blocks its worker and logs a warning instead of failing the session). In
 * continuation mode a handler class that the agent or build-time instrumentation already made
 * suspendable runs as loaded; any other is loaded through a {@code dev.flow.loader.ContinuationClassLoader}
 * (the only use of flow-classloader, so the first two routes run without it). The route taken is
 * printed at start-up ({@code route: ...}, {@link #route()}).
 *
 * <p>{@link #main(SampleProtocol, String[])} is the whole command line of a sample jar: it prints
 * {@code listening on 127.0.0.1:P} once bound, exits 2 on a bad option and 1 if the port cannot be
 * bound. On SIGTERM (or SIGINT) a shutdown hook stops gracefully ({@link #close(Duration)} with {@code
 * --grace}, default 10 s): the server stops accepting, requests in flight finish, then it prints
 * {@code stopped: ...} with the session counters (and in continuation mode the flow counters) and
 * the process exits with 0 if every session ended within the grace period
 * ({@code Runtime.halt(0)}, the hook being the last thing that runs), else with the JVM's 143 (128 +
 * SIGTERM) after closing the sessions left. If the stop takes longer than the grace period plus {@code
 * --stop-limit} (default 60 s), the JVM is halted with status 1: SIGTERM always ends the process.
 *
 * <p><b>Threads.</b> Thread-safe; {@link #close()} blocks until every session has closed.
 */
public final class SampleServer implements AutoCloseable {

    private final FlowScheduler scheduler;
    private final FlowServer server;
    private final LaunchOptions options;
    private final String name;
    private final Route route;

    /** How the handler class was made suspendable, printed at start-up ({@code route: ...}). */
    public enum Route {
        /** Sync mode: loaded normally, a thread per session. */
        SYNC("sync (thread per session)"),
        /** Continuation mode through a {@code ContinuationClassLoader} the launcher built. */
        LOADER("ContinuationClassLoader"),
        /** Continuation mode on the class as loaded: the agent or build-time instrumentation made it suspendable. */
        INSTRUMENTED("instrumented before loading (agent or build time)");

        private final String text;

        Route(String text) {
            this.text = text;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    private SampleServer(String name, FlowScheduler scheduler, FlowServer server, LaunchOptions options, Route route) {
        this.name = name;
        this.scheduler = scheduler;
        this.server = server;
        this.options = options;
        this.route = route;
    }

    /**
     * The handler class as this launcher's class loader loads it, if the agent or build-time
     * instrumentation made it suspendable (it carries {@link Instrumented}); else {@code null}, and
     * continuation mode loads it through a {@code ContinuationClassLoader}.
     *
     * @throws IllegalArgumentException if the handler class cannot be loaded
     */
    private static Class<?> instrumentedHandler(SampleProtocol protocol) {
        try {
            Class<?> type = Class.forName(protocol.handlerClass(), false, SampleServer.class.getClassLoader());
            return type.isAnnotationPresent(Instrumented.class) ? type : null;
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("handler class: " + protocol.handlerClass() + " is not on the class path", e);
        }
    }

    private static ClassLoader loaderRoute(SampleProtocol protocol, boolean strict) {
        try {
            return LoaderRoute.loader(protocol, SampleServer.class.getClassLoader(), strict);
        } catch (NoClassDefFoundError e) {
            throw new IllegalArgumentException("--mode continuation: " + protocol.handlerClass() + " is not instrumented and"
                    + " flow-classloader is not on the class path (expected: the class instrumented by the agent or at build"
                    + " time, or flow-classloader on the class path)", e);
        }
    }

    /** How continuation mode made the handler suspendable, or {@link Route#SYNC}. */
    public Route route() {
        return route;
    }

    /**
     * Starts {@code protocol} as {@code options} say, on 127.0.0.1: in continuation mode a scheduler
     * with {@code options.workers()} workers runs the sessions as flows; in sync mode each session runs
     * on a thread of its own.
     *
     * @throws IllegalArgumentException if a protocol setting is invalid
     * @throws IOException if the port cannot be bound
     */
    public static SampleServer start(SampleProtocol protocol, LaunchOptions options) throws IOException {
        SampleProtocol.Setup setup = protocol.setup(options.settings());
        Object[] shared = setup.handlerArgs().toArray();
        FlowServer.Builder builder = FlowServer.builder()
                .config(setup.config())
                .maxSessions(options.maxSessions())
                .maxStartingSessions(options.maxStartingSessions())
                .clientSpeaksFirst(options.clientSpeaksFirst().orElse(protocol.clientSpeaksFirst()))
                .backlog(4096);
        FlowScheduler scheduler = null;
        Route route = Route.SYNC;
        if (options.mode() == LaunchOptions.Mode.CONTINUATION) {
            Class<?> instrumented = instrumentedHandler(protocol);
            if (instrumented != null) {
                route = Route.INSTRUMENTED;
                builder.handler(instrumented, shared);
            } else {
                route = Route.LOADER;
                builder.handler(loaderRoute(protocol, options.strict()), protocol.handlerClass(), shared);
            }
            scheduler = FlowScheduler.builder().workers(options.workers()).policy(options.policy()).name(protocol.name()).build();
            builder.scheduler(scheduler).dispatch(options.dispatch());
        } else {
            builder.threadPerSession().handler(SampleServer.class.getClassLoader(), protocol.handlerClass(), shared);
        }
        try {
            FlowServer server = builder.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), options.port()));
            return new SampleServer(protocol.name(), scheduler, server, options, route);
        } catch (IOException | RuntimeException e) {
            if (scheduler != null) {
                scheduler.close();
            }
            throw e;
        }
    }

    /** The bound address (127.0.0.1 and the actual port). */
    public InetSocketAddress address() {
        return (InetSocketAddress) server.localAddress();
    }

    /**
     * The scheduler's counters (started, completed, failed, active, running, suspended, queued) in
     * continuation mode; empty in sync mode, which has no scheduler.
     */
    public Optional<FlowStats> flowStats() {
        return scheduler == null ? Optional.empty() : Optional.of(scheduler.stats());
    }

    /** The server's session counters: accepted, running, completed, closed by the peer, failed, stopped, rejected. */
    public SessionStats sessionStats() {
        return server.stats();
    }

    /** The number of sessions accepted since the server started. */
    public long acceptedSessions() {
        return server.acceptedSessions();
    }

    /** The number of sessions open right now. */
    public int openSessions() {
        return server.openSessions();
    }

    /**
     * Waits until no session is open or running and the scheduler (continuation mode) is idle (no flow
     * active, running, suspended or queued), up to {@code timeout}; returns whether it got there. Restores the interrupt if interrupted.
     */
    public boolean awaitIdle(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (server.openSessions() > 0 || server.stats().running() > 0
                || (scheduler != null && !scheduler.stats().isIdle())) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** The protocol's name, also the prefix of the scheduler's thread names. */
    public String name() {
        return name;
    }

    /** The options this server was started with. */
    public LaunchOptions options() {
        return options;
    }

    /**
     * Stops accepting, closes every session (their flows fail with an {@code IOException} at their next
     * read or write), then closes the scheduler and waits up to 10 s for its workers to stop. A second
     * call does nothing. Restores the interrupt if interrupted.
     */
    @Override
    public void close() {
        close(Duration.ZERO);
    }

    /**
     * Stops gracefully ({@link FlowServer#close(Duration)}): stops accepting, lets the requests in flight
     * finish for up to {@code grace}, closes the sessions left, then closes the scheduler and waits up
     * to 10 s for its workers to stop. Returns whether every session ended within the grace period; a
     * second call does nothing and returns {@code false}. Restores the interrupt if interrupted.
     */
    public boolean close(Duration grace) {
        try {
            return server.close(grace);
        } finally {
            if (scheduler != null) {
                scheduler.close();
                try {
                    scheduler.awaitTermination(Duration.ofSeconds(10));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /**
     * Runs a sample from the command line; see {@link LaunchOptions#usage(SampleProtocol)}. Returns only
     * after SIGTERM (or another JVM shutdown) has stopped the server, or exits with 2 on a bad option
     * and 1 if the server cannot start.
     */
    public static void main(SampleProtocol protocol, String[] args) throws InterruptedException {
        int status = run(protocol, args, System.out, System.err);
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * Starts a daemon thread that halts the JVM (exit status 1) if the shutdown has not ended within
     * {@code limit}: a stop must end even if a session, an I/O processor or the scheduler cannot.
     */
    private static void haltIfNotStoppedWithin(Duration limit, String name, PrintStream err) {
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(limit.toMillis());
            } catch (InterruptedException e) {
                return;
            }
            err.println("error: " + name + " did not stop within " + limit.toMillis() + " ms; halting");
            err.flush();
            Runtime.getRuntime().halt(1);
        }, name + "-stop-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    static int run(SampleProtocol protocol, String[] args, PrintStream out, PrintStream err)
            throws InterruptedException {
        LaunchOptions options;
        try {
            options = LaunchOptions.parse(protocol.settings(), args);
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            err.print(LaunchOptions.usage(protocol));
            return 2;
        }
        if (options.help()) {
            out.print(LaunchOptions.usage(protocol));
            return 0;
        }
        SampleServer server;
        try {
            server = start(protocol, options);
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            err.print(LaunchOptions.usage(protocol));
            return 2;
        } catch (IOException e) {
            err.println("error: cannot listen on 127.0.0.1:" + options.port() + ": " + e);
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            haltIfNotStoppedWithin(options.grace().plus(options.stopLimit()), protocol.name(), err);
            long t0 = System.nanoTime();
            boolean clean = server.close(options.grace());
            SessionStats s = server.sessionStats();
            out.println("stopped: " + (clean ? "every session ended" : "sessions left were closed") + " within "
                    + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) + " ms (grace " + options.grace().toMillis()
                    + " ms); " + s + server.flowStats().map(f -> "; " + f).orElse(""));
            out.flush();
            stopped.countDown();
            if (clean) {
                Runtime.getRuntime().halt(0);
            }
        }, protocol.name() + "-shutdown"));
        out.println(protocol.name() + ": " + options);
        out.println("route: " + server.route());
        out.println("listening on 127.0.0.1:" + server.address().getPort());
        out.flush();
        stopped.await();
        return 0;
    }
}
