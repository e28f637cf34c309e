package flowtest.conformance.primitives;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * {@code CountDownLatch.await()} counted down by another thread once the flow waits (1 ms later, a
 * descheduled flow found the latch open: no suspension, once in 150 runs at load 13; 100 ms later, too).
 */
public final class LatchAwaitFromOtherThread implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        CountDownLatch latch = new CountDownLatch(1);
        Async.onceWaiting("x").thenRun(latch::countDown);
        latch.await();
        return "count " + latch.getCount();
    }
}
