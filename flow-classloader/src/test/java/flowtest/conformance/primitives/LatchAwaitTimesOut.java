package flowtest.conformance.primitives;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** {@code CountDownLatch.await(timeout)} returns {@code false}, not before the timeout. */
public final class LatchAwaitTimesOut implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        CountDownLatch latch = new CountDownLatch(1);
        long start = System.nanoTime();
        boolean done = latch.await(30, TimeUnit.MILLISECONDS);
        long waited = System.nanoTime() - start;
        return done + ", waited the timeout: " + (waited >= TimeUnit.MILLISECONDS.toNanos(30));
    }
}
