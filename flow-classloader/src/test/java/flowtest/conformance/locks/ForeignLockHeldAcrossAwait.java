package flowtest.conformance.locks;

import flowtest.support.Async;
import flowtest.support.ForeignLocks;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.ReentrantLock;

/** A JDK lock created outside the scope, held across an await: it belongs to the thread, so the flow pins. */
public final class ForeignLockHeldAcrossAwait implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        ReentrantLock lock = ForeignLocks.reentrantLock();
        lock.lock();
        try {
            return Async.later("value").get() + ", held " + lock.isHeldByCurrentThread();
        } finally {
            lock.unlock();
        }
    }
}
