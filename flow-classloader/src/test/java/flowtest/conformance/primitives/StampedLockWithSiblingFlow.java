package flowtest.conformance.primitives;

import flowtest.support.Async;
import flowtest.support.Spawn;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.StampedLock;

/**
 * A {@code StampedLock} is not owned by a thread, so a flow may hold it across an await. This flow
 * holds the write lock while it awaits; a sibling flow waits for it in {@code readLock()}, then this flow
 * waits in {@code writeLock()} while the sibling holds a read lock across an await of its own. A
 * watchdog thread releases the write lock if they have not finished within 3 s (a waiter holding the
 * only worker would otherwise wait for ever), which shows in the result.
 */
public final class StampedLockWithSiblingFlow implements Callable<Object> {

    /** Reads once the write lock is free, holding the read lock across an await. */
    static final class Reader implements Callable<Object> {
        private final StampedLock lock;
        private final CountDownLatch reading;

        Reader(StampedLock lock, CountDownLatch reading) {
            this.lock = lock;
            this.reading = reading;
        }

        @Override
        public Object call() throws Exception {
            long stamp = lock.readLock();
            reading.countDown();
            try {
                return "read " + Async.later("under the read lock").get();
            } finally {
                lock.unlockRead(stamp);
            }
        }
    }

    @Override
    public Object call() throws Exception {
        StampedLock lock = new StampedLock();
        CountDownLatch finished = new CountDownLatch(1);
        Spawn.onThread(() -> {
            if (!finished.await(3, TimeUnit.SECONDS)) {
                lock.tryUnlockWrite();
            }
            return null;
        });
        CountDownLatch reading = new CountDownLatch(1);
        long write = lock.writeLock();
        java.util.concurrent.Future<Object> reader = Spawn.start(new Reader(lock, reading));
        String underWrite = Async.later("under the write lock").get();
        boolean stillWriteLocked = lock.isWriteLocked();
        lock.unlockWrite(write);
        reading.await();
        long again = lock.writeLock();
        boolean readersLeft = !lock.isReadLocked();
        lock.unlockWrite(again);
        finished.countDown();
        return underWrite + ", held across the await: " + stillWriteLocked + ", no reader under the second write lock: "
                + readersLeft + ", " + reader.get(3, TimeUnit.SECONDS);
    }
}
