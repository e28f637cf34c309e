package flowtest.conformance.primitives;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** {@code Thread.join()} of a thread that runs 5 ms, and a timed {@code join} that times out. */
public final class ThreadJoin implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Thread worker = new Thread(() -> LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5)), "joined");
        worker.start();
        worker.join();
        Thread slow = new Thread(() -> LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1)), "joined-slow");
        slow.setDaemon(true);
        slow.start();
        long start = System.nanoTime();
        slow.join(20);
        boolean waited = System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(20);
        String negative;
        try {
            slow.join(-1);
            negative = "accepted";
        } catch (IllegalArgumentException e) {
            negative = e.getMessage();
        }
        return worker.isAlive() + " " + slow.isAlive() + " waited " + waited + ", " + negative;
    }
}
