package flowtest.conformance.primitives;

import flowtest.support.ForeignLocks;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/** {@code lock()} of a lock made outside the scope that a plain thread holds: the wait blocks, reported. */
public final class ContendedForeignLock implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        ReentrantLock foreign = ForeignLocks.reentrantLock();
        CountDownLatch release = new CountDownLatch(1);
        ForeignLocks.holdUntilQueued(foreign, release);
        Lock lock = foreign;
        try {
            lock.lock();
            try {
                return "locked after the holder";
            } finally {
                lock.unlock();
            }
        } finally {
            release.countDown();
        }
    }
}
