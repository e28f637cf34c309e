package flowtest.conformance.primitives;

import flowtest.support.Async;
import flowtest.support.ForeignLocks;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.Lock;

/** {@code lock()} of a free lock made outside the scope, released before an await: never waits, so nothing is reported. */
public final class UncontendedForeignLock implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Lock lock = ForeignLocks.reentrantLock();
        lock.lockInterruptibly();
        try {
            lock.lock();
            lock.unlock();
        } finally {
            lock.unlock();
        }
        return "free, then " + Async.later("awaited").get();
    }
}
