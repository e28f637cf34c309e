package flowtest.conformance.locks;

import flowtest.support.ForeignLocks;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/** {@code Condition.await(timeout)} of a JDK lock created outside the scope: it blocks the worker (reported). */
public final class ForeignConditionAwait implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        ReentrantLock lock = ForeignLocks.reentrantLock();
        Condition ready = lock.newCondition();
        lock.lock();
        try {
            boolean signalled = ready.await(2, TimeUnit.MILLISECONDS);
            return "signalled " + signalled + ", held " + lock.isHeldByCurrentThread();
        } finally {
            lock.unlock();
        }
    }
}
