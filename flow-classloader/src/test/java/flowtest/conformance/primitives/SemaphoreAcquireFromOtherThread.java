package flowtest.conformance.primitives;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.Semaphore;

/**
 * {@code Semaphore.acquire()} and {@code acquireUninterruptibly(2)} of permits another thread releases
 * later: the first once the flow waits, so that it waits at least once however slow the machine.
 */
public final class SemaphoreAcquireFromOtherThread implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Semaphore semaphore = new Semaphore(0);
        Async.onceWaiting(1).thenAccept(semaphore::release);
        semaphore.acquire();
        Async.later(2).thenAccept(semaphore::release);
        semaphore.acquireUninterruptibly(2);
        return "permits " + semaphore.availablePermits();
    }
}
