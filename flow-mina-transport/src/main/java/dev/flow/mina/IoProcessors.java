package dev.flow.mina;

import dev.flow.FlowScheduler;
import dev.flow.internal.SchedulerCore;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.mina.core.service.SimpleIoProcessorPool;
import org.apache.mina.transport.socket.nio.NioSession;

/**
 * The MINA I/O processor pool of a TCP server or connector ({@link FlowNioProcessors}), with the
 * threads of its {@link Dispatch}: MINA's own cached pool for {@link Dispatch#WORKERS}, carrier threads
 * for {@link Dispatch#IO_THREADS} and {@link Dispatch#ADAPTIVE} (one scheduler's, or shared by every
 * scheduler for a connector built without one). The one place where
 * servers and connectors create their processors. Released by {@link #close()} after the acceptor or
 * connector using it is disposed; thread-safe.
 *
 * <p>A processor loop that an {@link OutOfMemoryError} escapes runs again on the same thread (after a
 * millisecond's pause, counted in {@link #outOfMemoryErrors()}): MINA's loop catches only {@code
 * Exception}s, so the thread would end, leaving the processor's sessions unserved and its disposal
 * waiting for ever (a server's {@code close()}, and so a JVM's shutdown hook, would hang).
 */
final class IoProcessors implements AutoCloseable {

    private static final long STOP_WAIT_SECONDS = 10;
    /** The pause before a processor loop runs again after an {@link OutOfMemoryError}. */
    private static final long OOM_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** The threads (of one {@link IoProcessors}) whose processor loop runs on the calling thread, if any. */
    private static final ThreadLocal<Executor> LOOP = new ThreadLocal<>();

    private final SimpleIoProcessorPool<NioSession> pool;
    /** The processors' threads: MINA-like plain threads, or the scheduler's carriers. */
    private final ExecutorService threads;
    private final AtomicLong outOfMemoryErrors;

    private IoProcessors(SimpleIoProcessorPool<NioSession> pool, ExecutorService threads, AtomicLong outOfMemoryErrors) {
        this.pool = pool;
        this.threads = threads;
        this.outOfMemoryErrors = outOfMemoryErrors;
    }

    /** The most processors a server or connector may be built with. */
    static final int MAX_COUNT = 256;

    /**
     * Returns {@code count}, the {@code ioProcessors} option of a server's or connector's builder, if it is
     * 1 to {@value #MAX_COUNT}.
     *
     * @throws IllegalArgumentException otherwise, naming the option, the value and the range
     */
    static int checkCount(int count) {
        if (count < 1 || count > MAX_COUNT) {
            throw new IllegalArgumentException("ioProcessors: " + count + " (expected: 1.." + MAX_COUNT + ")");
        }
        return count;
    }

    /**
     * How many I/O threads a server or connector has when its builder sets none: one per processor, whatever
     * its dispatch. With {@code IO_THREADS} and {@code ADAPTIVE} the I/O threads run the flows, and none should
     * wait for a core while it holds its sessions; with {@code WORKERS} they read and hand the flows to the
     * workers, and MINA's default (the processors plus one) served 0.79-0.89x the requests at 1.15-1.31x the
     * CPU (bench/RESULTS.md, "Two I/O threads on two cores" and "One I/O thread per processor for WORKERS").
     * A thread-per-session server keeps MINA's default ({@link FlowNioProcessors#DEFAULT_SIZE}): there one
     * thread fewer made no difference.
     */
    static int defaultCount() {
        return Runtime.getRuntime().availableProcessors();
    }

    /**
     * Creates {@code count} processors ({@code 0}: {@link #defaultCount}) for {@code dispatch};
     * {@code scheduler} is the one whose flows they run ({@code IO_THREADS} and {@code ADAPTIVE} only);
     * with {@code daemon}, the threads are daemon threads; with {@code keepLoops} (a server's), a
     * processor keeps its loop and thread while it has no session, until it is closed.
     */
    static IoProcessors create(Dispatch dispatch, FlowScheduler scheduler, int count, String name, boolean daemon,
            boolean keepLoops) {
        int n = count > 0 ? count : defaultCount();
        ThreadPoolExecutor threads;
        if (dispatch == Dispatch.WORKERS && daemon) {
            threads = daemonThreads(name + "-io");
        } else if (dispatch == Dispatch.WORKERS) {
            // What MINA's pool creates for itself when given no executor.
            threads = (ThreadPoolExecutor) Executors.newCachedThreadPool();
        } else {
            threads = (ThreadPoolExecutor) Executors.newCachedThreadPool(carriers(dispatch, scheduler, name + "-io", daemon));
            threads.setRejectedExecutionHandler(new ThreadPoolExecutor.CallerRunsPolicy());
        }
        AtomicLong outOfMemoryErrors = new AtomicLong();
        try {
            return new IoProcessors(FlowNioProcessors.pool(n, surviving(threads, outOfMemoryErrors, keepLoops)), threads,
                    outOfMemoryErrors);
        } catch (RuntimeException | Error e) {
            threads.shutdownNow();
            throw e;
        }
    }

    /**
     * Carrier threads named {@code name-N} for {@code dispatch} ({@code IO_THREADS} or {@code ADAPTIVE}):
     * of {@code scheduler}, or shared by every scheduler if it is {@code null}; daemon threads if {@code
     * daemon}.
     */
    private static ThreadFactory carriers(Dispatch dispatch, FlowScheduler scheduler, String name, boolean daemon) {
        boolean adaptive = dispatch == Dispatch.ADAPTIVE;
        ThreadFactory carriers;
        if (scheduler == null) {
            carriers = SchedulerCore.sharedCarrierThreadFactory(name, adaptive);
        } else {
            carriers = adaptive ? scheduler.adaptiveCarrierThreadFactory(name) : scheduler.carrierThreadFactory(name);
        }
        return r -> {
            Thread t = carriers.newThread(r);
            t.setDaemon(daemon);
            return t;
        };
    }

    /** A cached thread pool of daemon threads named {@code name-N}. */
    static ThreadPoolExecutor daemonThreads(String name) {
        AtomicLong ids = new AtomicLong();
        return (ThreadPoolExecutor) Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, name + "-" + ids.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * An executor that runs each processor loop on {@code threads}, again after an {@link OutOfMemoryError};
     * its processors keep their loops if {@code keepLoops}.
     */
    private static Executor surviving(Executor threads, AtomicLong outOfMemoryErrors, boolean keepLoops) {
        return new FlowNioProcessors.LoopThreads() {
            @Override
            public void execute(Runnable loop) {
                threads.execute(() -> {
                    LOOP.set(threads);
                    try {
                        runSurviving(loop, outOfMemoryErrors);
                    } finally {
                        FlowNioProcessors.FlowNioProcessor.leftLoop();
                        LOOP.remove();
                    }
                });
            }

            @Override
            public boolean keepLoops() {
                return keepLoops;
            }
        };
    }

    /** Runs {@code loop}, again after each {@link OutOfMemoryError} (counted) that escapes it. */
    private static void runSurviving(Runnable loop, AtomicLong outOfMemoryErrors) {
        for (;;) {
            try {
                loop.run();
                return;
            } catch (OutOfMemoryError e) {
                outOfMemoryErrors.incrementAndGet();
                // Let the collector catch up before the loop allocates again; keeps the interrupt.
                LockSupport.parkNanos(OOM_PAUSE_NANOS);
            }
        }
    }

    /**
     * Runs {@code stop} (the close of the server or connector using these processors, which waits for their
     * loops) on a new thread named {@code name} if the calling thread runs one of those loops (a session flow
     * resumed there included), and returns {@code true}; else does nothing and returns {@code false}.
     */
    boolean stopsElsewhereIfOwnThread(Runnable stop, String name, boolean daemon) {
        if (LOOP.get() != threads) {
            return false;
        }
        Thread stopper = new Thread(stop, name);
        stopper.setDaemon(daemon);
        stopper.start();
        return true;
    }

    /** The {@link OutOfMemoryError}s that escaped a processor loop, which then ran again. */
    long outOfMemoryErrors() {
        return outOfMemoryErrors.get();
    }

    /** The pool, for the acceptor's or connector's constructor. */
    SimpleIoProcessorPool<NioSession> pool() {
        return pool;
    }

    /** Disposes the processors and waits (10 s at most) for their threads to end. */
    @Override
    public void close() {
        pool.dispose();
        threads.shutdown();
        try {
            threads.awaitTermination(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
