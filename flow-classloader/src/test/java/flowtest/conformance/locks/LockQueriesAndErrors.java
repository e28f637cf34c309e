package flowtest.conformance.locks;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * What a lock answers about itself while held across awaits: fairness, hold counts, ownership, and
 * the exceptions of misuse (unlock without holding, a condition used without its lock or with
 * another lock, a read lock's condition).
 */
public final class LockQueriesAndErrors implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        StringBuilder b = new StringBuilder();
        ReentrantLock fair = new ReentrantLock(true);
        ReentrantLock unfair = new ReentrantLock();
        b.append(fair.isFair()).append(unfair.isFair()).append(' ');
        fair.lock();
        Async.later(1).get();
        fair.lock();
        b.append(fair.getHoldCount()).append(fair.isHeldByCurrentThread()).append(fair.isLocked()).append(' ');
        Async.later(2).get();
        fair.unlock();
        fair.unlock();
        b.append(fair.getHoldCount()).append(fair.isHeldByCurrentThread()).append(fair.isLocked()).append(' ');
        b.append(caught(() -> fair.unlock())).append(' ');
        Condition c = fair.newCondition();
        b.append(caught(() -> c.signal())).append(' ');
        b.append(caught(() -> c.await())).append(' ');
        b.append(caught(() -> fair.hasWaiters(unfair.newCondition()))).append(' ');
        fair.lock();
        try {
            b.append(fair.hasWaiters(c)).append(fair.getWaitQueueLength(c)).append(' ');
            b.append(c.awaitNanos(0) <= 0).append(fair.getHoldCount()).append(' ');
        } finally {
            fair.unlock();
        }
        ReentrantReadWriteLock rw = new ReentrantReadWriteLock();
        b.append(caught(() -> rw.readLock().unlock())).append(' ');
        b.append(caught(() -> rw.writeLock().unlock())).append(' ');
        b.append(caught(() -> rw.readLock().newCondition())).append(' ');
        rw.writeLock().lock();
        rw.readLock().lock();
        Async.later(3).get();
        b.append(rw.isWriteLocked()).append(rw.isWriteLockedByCurrentThread()).append(rw.getWriteHoldCount())
                .append(rw.getReadHoldCount()).append(rw.getReadLockCount()).append(' ');
        rw.writeLock().unlock();
        b.append(rw.isWriteLocked()).append(rw.getReadHoldCount()).append(rw.readLock().tryLock()).append(rw.getReadHoldCount())
                .append(rw.writeLock().tryLock()).append(' ');
        rw.readLock().unlock();
        rw.readLock().unlock();
        b.append(rw.writeLock().tryLock()).append(rw.writeLock().isHeldByCurrentThread());
        rw.writeLock().unlock();
        return b.toString();
    }

    private interface Body {
        void run() throws Exception;
    }

    private static String caught(Body body) {
        try {
            body.run();
            return "returned";
        } catch (Exception e) {
            return e.getClass().getSimpleName() + ":" + e.getMessage();
        }
    }
}
