package flowtest.conformance.primitives;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.Semaphore;

/** {@code Semaphore.acquire()} and {@code acquireUninterruptibly(2)} of permits another thread releases later. */
public final class SemaphoreAcquireFromOtherThread implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Semaphore semaphore = new Semaphore(0);
        Async.runLater(() -> semaphore.release(1));
        semaphore.acquire();
        Async.runLater(() -> semaphore.release(2));
        semaphore.acquireUninterruptibly(2);
        return "permits " + semaphore.availablePermits();
    }
}
