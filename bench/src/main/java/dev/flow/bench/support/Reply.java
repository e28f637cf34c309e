package dev.flow.bench.support;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The answer channel of the ping-pong benchmarks: the flow (or virtual thread) {@link #signal()
 * signals}, the JMH thread {@link #await() parks} until it has. One waiter thread at a time.
 * Also carries the stop request that ends the responder's loop.
 */
public final class Reply {

    private volatile boolean ready;
    private volatile Thread waiter;
    private volatile boolean stop;

    /** Marks the reply as given and unparks the waiter. */
    public void signal() {
        ready = true;
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    /** Parks the calling thread until {@link #signal()} has been called, then consumes it. */
    public void await() {
        Thread t = Thread.currentThread();
        if (waiter != t) {
            waiter = t;
        }
        while (!ready) {
            LockSupport.park(this);
        }
        ready = false;
    }

    /**
     * Like {@link #await()} but gives up after {@code timeoutMillis}; for set-up and tear-down.
     *
     * @return whether the reply arrived
     */
    public boolean await(long timeoutMillis) {
        Thread t = Thread.currentThread();
        waiter = t;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (!ready) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            LockSupport.parkNanos(this, left);
        }
        ready = false;
        return true;
    }

    /** Asks the responder to leave its loop after its next round. */
    public void requestStop() {
        stop = true;
    }

    /** Whether {@link #requestStop()} was called. */
    public boolean stopRequested() {
        return stop;
    }
}
