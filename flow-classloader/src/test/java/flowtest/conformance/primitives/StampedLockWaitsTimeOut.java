package flowtest.conformance.primitives;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.StampedLock;

/**
 * Timed and interruptible {@code StampedLock} acquisitions: {@code tryReadLock}/{@code tryWriteLock}
 * with a timeout give up with stamp 0 while the write lock is held (it is not reentrant), and the
 * interruptible forms acquire a free lock.
 */
public final class StampedLockWaitsTimeOut implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        StampedLock lock = new StampedLock();
        long write = lock.writeLock();
        long start = System.nanoTime();
        long read = lock.tryReadLock(10, TimeUnit.MILLISECONDS);
        long secondWrite = lock.tryWriteLock(10, TimeUnit.MILLISECONDS);
        long waited = System.nanoTime() - start;
        lock.unlockWrite(write);
        long r = lock.readLockInterruptibly();
        lock.unlockRead(r);
        long w = lock.writeLockInterruptibly();
        lock.unlockWrite(w);
        long t = lock.tryReadLock(0, TimeUnit.SECONDS);
        lock.unlockRead(t);
        return read + " " + secondWrite + ", waited the timeouts: " + (waited >= TimeUnit.MILLISECONDS.toNanos(20))
                + ", interruptible forms acquired: " + (r != 0 && w != 0 && t != 0) + ", free: " + !lock.isReadLocked();
    }
}
