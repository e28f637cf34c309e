package flowtest.conformance.primitives;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** {@code TimeUnit.sleep} in several units and {@code TimeUnit.timedJoin} of a thread that ends. */
public final class TimeUnitSleepAndTimedJoin implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        long start = System.nanoTime();
        TimeUnit.MILLISECONDS.sleep(2);
        TimeUnit.MICROSECONDS.sleep(1500);
        TimeUnit.NANOSECONDS.sleep(1_000_001);
        TimeUnit.SECONDS.sleep(-1);
        long slept = System.nanoTime() - start;
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        t.start();
        TimeUnit.SECONDS.timedJoin(t, 5);
        return "slept at least 4.5 ms: " + (slept >= 4_500_000L) + ", joined: " + !t.isAlive();
    }
}
