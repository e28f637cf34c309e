package dev.flow.jdk;

import dev.flow.internal.FlowOwnedLock;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A {@link ReentrantReadWriteLock} whose read and write holds belong to the flow that takes them
 * rather than to the worker thread (see {@link FlowReentrantLock}): the {@code ContinuationClassLoader}
 * creates one wherever loaded code creates a {@code ReentrantReadWriteLock}. Readers share, a writer
 * excludes everyone else, both re-enter, a writer may take the read lock (downgrade), a reader asking
 * for the write lock waits for ever (as in the JDK); a new reader waits behind a queued writer (behind
 * anyone queued if fair). {@code hasQueuedThreads}, {@code hasQueuedThread} and {@code getQueueLength}
 * (final in the JDK) see no waiter.
 *
 * <p>Public only because loaded code names it; not an API. Thread-safe.
 */
public class FlowReentrantReadWriteLock extends ReentrantReadWriteLock {

    private static final long serialVersionUID = 1L;

    private final transient OwnedSync sync;
    private final ReadLock readLock;
    private final WriteLock writeLock;

    /** An unfair lock, as {@code new ReentrantReadWriteLock()}. */
    public FlowReentrantReadWriteLock() {
        this(false);
    }

    /** A lock with the given fairness policy, as {@code new ReentrantReadWriteLock(fair)}. */
    public FlowReentrantReadWriteLock(boolean fair) {
        super(fair);
        this.sync = new OwnedSync(fair);
        this.readLock = new FlowReadLock(this, sync);
        this.writeLock = new FlowWriteLock(this, sync);
    }

    @Override
    public ReadLock readLock() {
        return readLock;
    }

    @Override
    public WriteLock writeLock() {
        return writeLock;
    }

    @Override
    protected Thread getOwner() {
        return OwnedSync.asThread(sync.writer());
    }

    @Override
    public int getReadLockCount() {
        return sync.readLockCount();
    }

    @Override
    public boolean isWriteLocked() {
        return sync.isWriteLocked();
    }

    @Override
    public boolean isWriteLockedByCurrentThread() {
        return sync.isWriteHeldBy(OwnedSync.me());
    }

    @Override
    public int getWriteHoldCount() {
        return sync.writeHoldsOf(OwnedSync.me());
    }

    @Override
    public int getReadHoldCount() {
        return sync.readHoldsOf(OwnedSync.me());
    }

    @Override
    protected Collection<Thread> getQueuedWriterThreads() {
        return List.of();
    }

    @Override
    protected Collection<Thread> getQueuedReaderThreads() {
        return List.of();
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
        getWaitQueueLength(condition);
        return List.of();
    }

    @Override
    public String toString() {
        return getClass().getName() + "@" + Integer.toHexString(hashCode())
                + "[Write locks = " + sync.writeHoldsOf(sync.writer()) + ", Read locks = " + sync.readLockCount() + "]";
    }

    /** The read lock: shared holds. */
    static final class FlowReadLock extends ReadLock implements FlowOwnedLock {
        private static final long serialVersionUID = 1L;
        private final transient OwnedSync sync;

        FlowReadLock(ReentrantReadWriteLock lock, OwnedSync sync) {
            super(lock);
            this.sync = sync;
        }

        @Override
        public void lock() {
            sync.acquire(true);
        }

        @Override
        public void lockInterruptibly() throws InterruptedException {
            sync.acquireInterruptibly(true);
        }

        @Override
        public boolean tryLock() {
            return sync.tryAcquire(true);
        }

        @Override
        public boolean tryLock(long timeout, TimeUnit unit) throws InterruptedException {
            return sync.tryAcquire(true, unit.toNanos(timeout));
        }

        @Override
        public void unlock() {
            if (!sync.release(OwnedSync.me(), true)) {
                throw new IllegalMonitorStateException("attempt to unlock read lock, not locked by current thread");
            }
        }

        @Override
        public Condition newCondition() {
            throw new UnsupportedOperationException();
        }

        @Override
        public String toString() {
            return getClass().getName() + "@" + Integer.toHexString(hashCode()) + "[Read locks = " + sync.readLockCount() + "]";
        }
    }

    /** The write lock: an exclusive hold. */
    static final class FlowWriteLock extends WriteLock implements FlowOwnedLock {
        private static final long serialVersionUID = 1L;
        private final transient OwnedSync sync;

        FlowWriteLock(ReentrantReadWriteLock lock, OwnedSync sync) {
            super(lock);
            this.sync = sync;
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
        public boolean isHeldByCurrentThread() {
            return sync.isWriteHeldBy(OwnedSync.me());
        }

        @Override
        public int getHoldCount() {
            return sync.writeHoldsOf(OwnedSync.me());
        }

        @Override
        public String toString() {
            Object o = sync.writer();
            return getClass().getName() + "@" + Integer.toHexString(hashCode())
                    + (o == null ? "[Unlocked]" : "[Locked by thread " + OwnedSync.describe(o) + "]");
        }
    }
}
