package flowtest.conformance.primitives;

import flowtest.support.ForeignLocks;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/** A timed {@code tryLock} of a lock made outside the scope that a plain thread holds: the wait blocks, reported. */
public final class ContendedForeignLockTimedTry implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        ReentrantLock lock = ForeignLocks.reentrantLock();
        CountDownLatch release = new CountDownLatch(1);
        ForeignLocks.holdUntilQueued(lock, release);
        try {
            if (!lock.tryLock(5, TimeUnit.SECONDS)) {
                return "not acquired";
            }
            try {
                return "acquired after the holder";
            } finally {
                lock.unlock();
            }
        } finally {
            release.countDown();
        }
    }
}
