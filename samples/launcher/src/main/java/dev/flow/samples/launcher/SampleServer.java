package dev.flow.samples.launcher;

import dev.flow.FlowScheduler;
import dev.flow.FlowStats;
import dev.flow.SuspendPolicy;
import dev.flow.Transport;
import dev.flow.loader.ContinuationClassLoader;
import dev.flow.mina.FlowServer;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;

/**
 * A running sample server: a {@link FlowServer} on 127.0.0.1 whose sessions run the protocol's
 * handler, loaded normally (sync mode) or through the {@link ContinuationClassLoader} (continuation
 * mode, strict off: a flow that cannot suspend blocks its worker and logs a warning).
 *
 * <p>{@link #main(SampleProtocol, String[])} is the whole command line of a sample jar: it prints
 * {@code listening on 127.0.0.1:P} once bound, stops cleanly on SIGTERM (a shutdown hook closes the
 * server, then the scheduler), exits 2 on a bad option and 1 if the port cannot be bound.
 *
 * <p><b>Threads.</b> Thread-safe; {@link #close()} blocks until every session has closed.
 */
public final class SampleServer implements AutoCloseable {

    private final FlowScheduler scheduler;
    private final FlowServer server;
    private final LaunchOptions options;

    private SampleServer(FlowScheduler scheduler, FlowServer server, LaunchOptions options) {
        this.scheduler = scheduler;
        this.server = server;
        this.options = options;
    }

    /**
     * Starts {@code protocol} as {@code options} say, on 127.0.0.1.
     *
     * @throws IllegalArgumentException if a protocol setting is invalid
     * @throws IOException if the port cannot be bound
     */
    public static SampleServer start(SampleProtocol protocol, LaunchOptions options) throws IOException {
        SampleProtocol.Setup setup = protocol.setup(options.settings());
        Function<Transport, Callable<?>> handlers = options.mode() == LaunchOptions.Mode.CONTINUATION
                ? continuationHandlers(protocol, setup) : syncHandlers(protocol, setup);
        FlowScheduler scheduler = FlowScheduler.builder()
                .workers(options.workers())
                .policy(options.mode() == LaunchOptions.Mode.SYNC ? SuspendPolicy.never() : options.policy())
                .name(protocol.name())
                .build();
        try {
            FlowServer server = FlowServer.builder()
                    .scheduler(scheduler)
                    .config(setup.config())
                    .backlog(4096)
                    .handler(handlers)
                    .start(new InetSocketAddress(InetAddress.getLoopbackAddress(), options.port()));
            return new SampleServer(scheduler, server, options);
        } catch (IOException | RuntimeException e) {
            scheduler.close();
            throw e;
        }
    }

    private static Function<Transport, Callable<?>> continuationHandlers(SampleProtocol protocol,
            SampleProtocol.Setup setup) {
        ContinuationClassLoader loader = ContinuationClassLoader.builder()
                .include(protocol.protocolPackage())
                .parent(SampleServer.class.getClassLoader())
                .strict(false)
                .build();
        return t -> loader.newInstance(Callable.class, protocol.handlerClass(), arguments(t, setup));
    }

    private static Function<Transport, Callable<?>> syncHandlers(SampleProtocol protocol, SampleProtocol.Setup setup) {
        Constructor<?> constructor;
        try {
            Class<?> c = Class.forName(protocol.handlerClass(), true, SampleServer.class.getClassLoader());
            constructor = c.getConstructors().length == 1 ? c.getConstructors()[0] : null;
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("handlerClass: " + protocol.handlerClass() + " (expected: a class that exists)", e);
        }
        if (constructor == null || constructor.getParameterCount() != setup.handlerArgs().size() + 1) {
            throw new IllegalArgumentException("handlerClass: " + protocol.handlerClass()
                    + " (expected: one public constructor (Transport, " + setup.handlerArgs().size() + " shared arguments))");
        }
        Constructor<?> k = constructor;
        return t -> {
            try {
                return (Callable<?>) k.newInstance(arguments(t, setup));
            } catch (InvocationTargetException e) {
                throw new IllegalStateException("constructor of " + protocol.handlerClass() + " failed", e.getCause());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot create " + protocol.handlerClass(), e);
            }
        };
    }

    private static Object[] arguments(Transport t, SampleProtocol.Setup setup) {
        List<Object> args = new ArrayList<>();
        args.add(t);
        args.addAll(setup.handlerArgs());
        return args.toArray();
    }

    /** The bound address (127.0.0.1 and the actual port). */
    public InetSocketAddress address() {
        return (InetSocketAddress) server.localAddress();
    }

    /** The scheduler's counters: started, completed, failed, active, running, suspended... */
    public FlowStats stats() {
        return scheduler.stats();
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
     * Waits until no session is open and the scheduler is idle (no flow active, running, suspended or
     * queued), up to {@code timeout}; returns whether it got there. Restores the interrupt if interrupted.
     */
    public boolean awaitIdle(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (server.openSessions() > 0 || !scheduler.stats().isIdle()) {
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
        try {
            server.close();
        } finally {
            scheduler.close();
            try {
                scheduler.awaitTermination(Duration.ofSeconds(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
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

    private static int run(SampleProtocol protocol, String[] args, PrintStream out, PrintStream err)
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
            server.close();
            stopped.countDown();
        }, protocol.name() + "-shutdown"));
        out.println(protocol.name() + ": " + options);
        out.println("listening on 127.0.0.1:" + server.address().getPort());
        out.flush();
        stopped.await();
        return 0;
    }
}
