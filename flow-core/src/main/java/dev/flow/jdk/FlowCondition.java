package dev.flow.jdk;

import java.util.ArrayDeque;
import java.util.Date;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Condition;

/**
 * The {@link Condition} of a flow-owned exclusive lock ({@link FlowReentrantLock}, the write lock of
 * {@link FlowReentrantReadWriteLock}): {@code await} releases every hold of the owner, waits for a
 * signal (a flow suspends, a thread blocks), then takes the holds back, as the JDK's condition does.
 * Signals wake waiters in FIFO order. Thread-safe.
 */
final class FlowCondition implements Condition {

    private final OwnedSync sync;
    /** Guarded by {@code sync}. */
    private final ArrayDeque<CompletableFuture<Void>> waiters = new ArrayDeque<>();

    FlowCondition(OwnedSync sync) {
        this.sync = sync;
    }

    /**
     * {@code condition} as a condition of {@code sync}'s lock, for the lock's queries about it.
     *
     * @throws IllegalArgumentException if it belongs to another lock
     */
    static FlowCondition of(OwnedSync sync, Condition condition) {
        if (condition == null) {
            throw new NullPointerException();
        }
        if (!(condition instanceof FlowCondition) || ((FlowCondition) condition).sync != sync) {
            throw new IllegalArgumentException("Not owner");
        }
        return (FlowCondition) condition;
    }

    private Object owner() {
        Object me = OwnedSync.me();
        if (!sync.isWriteHeldBy(me)) {
            throw new IllegalMonitorStateException();
        }
        return me;
    }

    private CompletableFuture<Void> enqueue() {
        CompletableFuture<Void> w = new CompletableFuture<>();
        synchronized (sync) {
            waiters.add(w);
        }
        return w;
    }

    /** Removes {@code w} if no signal took it; {@code true} if it was signalled. */
    private boolean signalled(CompletableFuture<Void> w) {
        synchronized (sync) {
            return !waiters.remove(w);
        }
    }

    @Override
    public void await() throws InterruptedException {
        timedWait(-1);
    }

    @Override
    public void awaitUninterruptibly() {
        Object me = owner();
        CompletableFuture<Void> w = enqueue();
        int holds = sync.releaseAll(me);
        w.join();
        sync.reacquire(me, holds);
    }

    @Override
    public long awaitNanos(long nanosTimeout) throws InterruptedException {
        long start = System.nanoTime();
        timedWait(Math.max(nanosTimeout, 0));
        return nanosTimeout - (System.nanoTime() - start);
    }

    /**
     * Releases the lock, waits up to {@code nanosTimeout} ({@code -1}: for ever) for a signal, takes the
     * lock back; returns whether a signal came. An interrupt while waiting throws {@link
     * InterruptedException} after the lock is taken back, or, if a signal came first, is kept.
     */
    private boolean timedWait(long nanosTimeout) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        Object me = owner();
        CompletableFuture<Void> w = enqueue();
        int holds = sync.releaseAll(me);
        boolean interrupted = false;
        try {
            if (nanosTimeout < 0) {
                w.get();
            } else if (nanosTimeout > 0) {
                w.get(nanosTimeout, TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            interrupted = true;
        } catch (TimeoutException e) {
            // no signal in time: decided below
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
        boolean signalled = signalled(w);
        sync.reacquire(me, holds);
        if (interrupted) {
            if (!signalled) {
                throw new InterruptedException();
            }
            Thread.currentThread().interrupt();
        }
        return signalled;
    }

    @Override
    public boolean await(long time, TimeUnit unit) throws InterruptedException {
        return timedWait(Math.max(unit.toNanos(time), 0));
    }

    @Override
    public boolean awaitUntil(Date deadline) throws InterruptedException {
        return timedWait(Math.max(TimeUnit.MILLISECONDS.toNanos(deadline.getTime() - System.currentTimeMillis()), 0));
    }

    @Override
    public void signal() {
        owner();
        CompletableFuture<Void> w;
        synchronized (sync) {
            w = waiters.poll();
        }
        if (w != null) {
            w.complete(null);
        }
    }

    @Override
    public void signalAll() {
        owner();
        CompletableFuture<?>[] all;
        synchronized (sync) {
            all = waiters.toArray(new CompletableFuture<?>[0]);
            waiters.clear();
        }
        for (CompletableFuture<?> w : all) {
            w.complete(null);
        }
    }

    int waitQueueLength() {
        owner();
        synchronized (sync) {
            return waiters.size();
        }
    }
}
