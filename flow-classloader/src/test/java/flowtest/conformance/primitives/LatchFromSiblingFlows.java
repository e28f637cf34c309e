package flowtest.conformance.primitives;

import flowtest.support.Async;
import flowtest.support.Spawn;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** {@code CountDownLatch.await(timeout)} for two sibling flows that each count down after an await. */
public final class LatchFromSiblingFlows implements Callable<Object> {

    /** Awaits a value, then counts down. */
    static final class Worker implements Callable<Object> {
        private final CountDownLatch latch;

        Worker(CountDownLatch latch) {
            this.latch = latch;
        }

        @Override
        public Object call() throws Exception {
            int v = Async.later(21).get();
            latch.countDown();
            return v;
        }
    }

    @Override
    public Object call() throws Exception {
        CountDownLatch latch = new CountDownLatch(2);
        java.util.concurrent.Future<Object> a = Spawn.start(new Worker(latch));
        java.util.concurrent.Future<Object> b = Spawn.start(new Worker(latch));
        boolean done = latch.await(3, TimeUnit.SECONDS);
        return done + " " + latch.getCount() + " " + ((Integer) a.get() + (Integer) b.get());
    }
}
