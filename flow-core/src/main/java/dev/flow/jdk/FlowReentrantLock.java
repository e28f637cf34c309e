package dev.flow.jdk;

import dev.flow.internal.FlowOwnedLock;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link ReentrantLock} owned by the flow that takes it rather than by the worker thread: the
 * {@code ContinuationClassLoader} creates one wherever loaded code creates a {@code ReentrantLock},
 * and makes in-scope subclasses of {@code ReentrantLock} extend it. A flow holding it may suspend (it
 * stays the owner on whichever worker resumes it); a flow waiting for it suspends; a plain thread
 * waiting for it blocks, and mutual exclusion holds between all of them. Re-entrancy, the fairness
 * flag, {@code isHeldByCurrentThread} (true for the owning flow), {@code tryLock(timeout)}, {@code
 * lockInterruptibly} and conditions behave as the JDK's. Differences: {@code hasQueuedThreads},
 * {@code hasQueuedThread} and {@code getQueueLength} (final in the JDK) see no waiter, and {@code
 * getOwner()} is {@code null} while a flow holds it.
 *
 * <p>Public only because loaded code names it; not an API. Thread-safe.
 */
public class FlowReentrantLock extends ReentrantLock implements FlowOwnedLock {

    private static final long serialVersionUID = 1L;

    private final transient OwnedSync sync;

    /** An unfair lock, as {@code new ReentrantLock()}. */
    public FlowReentrantLock() {
        this(false);
    }

    /** A lock with the given fairness policy, as {@code new ReentrantLock(fair)}. */
    public FlowReentrantLock(boolean fair) {
        super(fair);
        this.sync = new OwnedSync(fair);
    }

    @Override
    public void lock() {
        sync.acquire(false);
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        sync.acquireInterruptibly(false);
    }

    @Override
    public boolean tryLock() {
        return sync.tryAcquire(false);
    }

    @Override
    public boolean tryLock(long timeout, TimeUnit unit) throws InterruptedException {
        return sync.tryAcquire(false, unit.toNanos(timeout));
    }

    @Override
    public void unlock() {
        if (!sync.release(OwnedSync.me(), false)) {
            throw new IllegalMonitorStateException();
        }
    }

    @Override
    public Condition newCondition() {
        return new FlowCondition(sync);
    }

    @Override
    public int getHoldCount() {
        return sync.writeHoldsOf(OwnedSync.me());
    }

    @Override
    public boolean isHeldByCurrentThread() {
        return sync.isWriteHeldBy(OwnedSync.me());
    }

    @Override
    public boolean isLocked() {
        return sync.isWriteLocked();
    }

    @Override
    protected Thread getOwner() {
        return OwnedSync.asThread(sync.writer());
    }

    @Override
    protected Collection<Thread> getQueuedThreads() {
        return List.of();
    }

    @Override
    public boolean hasWaiters(Condition condition) {
        return getWaitQueueLength(condition) > 0;
    }

    @Override
    public int getWaitQueueLength(Condition condition) {
        return FlowCondition.of(sync, condition).waitQueueLength();
    }

    @Override
    protected Collection<Thread> getWaitingThreads(Condition condition) {
        FlowCondition.of(sync, condition).waitQueueLength();
        return List.of();
    }

    @Override
    public String toString() {
        Object o = sync.writer();
        String state = o == null ? "[Unlocked]" : "[Locked by thread " + OwnedSync.describe(o) + "]";
        return getClass().getName() + "@" + Integer.toHexString(hashCode()) + state;
    }
}
