package flowtest.conformance.locks;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.ReentrantLock;

/** Nested reentrant holds: the lock stays held until the last {@code unlock}, and awaits after it suspend. */
public final class ReentrantNesting implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        ReentrantLock lock = new ReentrantLock();
        StringBuilder holds = new StringBuilder();
        lock.lock();
        lock.lockInterruptibly();
        holds.append(lock.tryLock()).append(lock.getHoldCount());
        lock.unlock();
        lock.unlock();
        holds.append(lock.getHoldCount()).append(lock.isLocked());
        lock.unlock();
        holds.append(lock.getHoldCount()).append(lock.isLocked());
        return holds + " " + Async.later("after").get();
    }
}
