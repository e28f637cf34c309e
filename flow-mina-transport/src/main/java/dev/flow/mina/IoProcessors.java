package dev.flow.mina;

import dev.flow.FlowScheduler;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.mina.core.service.SimpleIoProcessorPool;
import org.apache.mina.transport.socket.nio.NioSession;

/**
 * The MINA I/O processor pool of a TCP server or connector ({@link FlowNioProcessors}), with the
 * threads of its {@link Dispatch}: MINA's own cached pool for {@link Dispatch#WORKERS}, the scheduler's
 * carrier threads for {@link Dispatch#IO_THREADS}. The one place where servers and connectors create
 * their processors. Released by {@link #close()}
 * after the acceptor or connector using it is disposed; thread-safe.
 */
final class IoProcessors implements AutoCloseable {

    private static final long STOP_WAIT_SECONDS = 10;

    private final SimpleIoProcessorPool<NioSession> pool;
    /** The carrier threads, or {@code null} when MINA owns the executor. */
    private final ExecutorService carriers;

    private IoProcessors(SimpleIoProcessorPool<NioSession> pool, ExecutorService carriers) {
        this.pool = pool;
        this.carriers = carriers;
    }

    /**
     * Creates {@code count} processors ({@code 0}: MINA's default, processors + 1) for {@code dispatch};
     * {@code scheduler} is the one whose flows they run ({@code IO_THREADS} only).
     */
    static IoProcessors create(Dispatch dispatch, FlowScheduler scheduler, int count, String name) {
        int n = count > 0 ? count : FlowNioProcessors.DEFAULT_SIZE;
        if (dispatch != Dispatch.IO_THREADS) {
            return new IoProcessors(FlowNioProcessors.pool(n, null), null);
        }
        ThreadPoolExecutor carriers = (ThreadPoolExecutor) Executors.newCachedThreadPool(
                scheduler.carrierThreadFactory(name + "-io"));
        carriers.setRejectedExecutionHandler(new ThreadPoolExecutor.CallerRunsPolicy());
        try {
            return new IoProcessors(FlowNioProcessors.pool(n, carriers), carriers);
        } catch (RuntimeException | Error e) {
            carriers.shutdownNow();
            throw e;
        }
    }

    /** The pool, for the acceptor's or connector's constructor. */
    SimpleIoProcessorPool<NioSession> pool() {
        return pool;
    }

    /** Disposes the processors and waits (10 s at most) for their threads to end. */
    @Override
    public void close() {
        pool.dispose();
        if (carriers != null) {
            carriers.shutdown();
            try {
                carriers.awaitTermination(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
