package flowtest.conformance.locks;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/** {@code Condition.await(timeout)} on a held lock created here: the flow suspends and holds the lock again after. */
public final class ConditionAwaitWithLock implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        ReentrantLock lock = new ReentrantLock();
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
