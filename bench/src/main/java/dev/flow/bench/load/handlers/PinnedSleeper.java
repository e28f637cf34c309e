package dev.flow.bench.load.handlers;

import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link Sleeper} called while holding a monitor: the wait happens under a {@code synchronized} block, so a
 * flow cannot suspend there (it pins, reported once by a lenient loader) and blocks the thread it runs on.
 * Each call locks an object of its own, so no caller waits for another's monitor.
 */
public final class PinnedSleeper implements Callable<Integer>, Runnable {
    private final Sleeper sleeper;

    /** A sleeper of {@code millis}; the counters are shared with the driver. */
    public PinnedSleeper(Long millis, AtomicLong sleeping, AtomicLong done) {
        this.sleeper = new Sleeper(millis, sleeping, done);
    }

    /** Sleeps once, holding a monitor of its own. */
    @Override
    public Integer call() throws InterruptedException {
        Object monitor = new Object();
        synchronized (monitor) {
            return sleeper.call();
        }
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
