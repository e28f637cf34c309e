package flowtest.conformance.primitives;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/** {@code CountDownLatch.await()} counted down later by another thread. */
public final class LatchAwaitFromOtherThread implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        CountDownLatch latch = new CountDownLatch(1);
        Async.runLater(latch::countDown);
        latch.await();
        return "count " + latch.getCount();
    }
}
