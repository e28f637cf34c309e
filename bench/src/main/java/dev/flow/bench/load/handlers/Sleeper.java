package dev.flow.bench.load.handlers;

import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Plain user code that sleeps: {@code Thread.sleep(millis)} and nothing else. One instance is shared
 * by all the flows or threads of a run (it has no per-call state), so the only per-flow memory is
 * what the runtime itself keeps for a sleeping flow. {@code sleeping} counts the callers that have
 * reached the sleep, so the driver knows when every one is parked.
 */
public final class Sleeper implements Callable<Integer>, Runnable {
    private final long millis;
    private final AtomicLong sleeping;
    private final AtomicLong done;

    /** A sleeper of {@code millis}; the counters are shared with the driver. */
    public Sleeper(Long millis, AtomicLong sleeping, AtomicLong done) {
        this.millis = millis;
        this.sleeping = sleeping;
        this.done = done;
    }

    /** Sleeps once. */
    @Override
    public Integer call() throws InterruptedException {
        sleeping.incrementAndGet();
        Thread.sleep(millis);
        done.incrementAndGet();
        return 1;
    }

    /** Same as {@link #call()}, for threads. */
    @Override
    public void run() {
        try {
            call();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
