package flowtest.conformance.primitives;

import java.util.concurrent.Callable;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/** {@code Semaphore.tryAcquire(timeout)} returns {@code false}, not before the timeout; negative permits are refused. */
public final class SemaphoreTryAcquireTimesOut implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Semaphore semaphore = new Semaphore(0);
        long start = System.nanoTime();
        boolean acquired = semaphore.tryAcquire(30, TimeUnit.MILLISECONDS);
        long waited = System.nanoTime() - start;
        String negative;
        try {
            semaphore.tryAcquire(-1, 1, TimeUnit.SECONDS);
            negative = "accepted";
        } catch (IllegalArgumentException e) {
            negative = "refused " + e.getMessage();
        }
        return acquired + ", waited the timeout: " + (waited >= TimeUnit.MILLISECONDS.toNanos(30)) + ", " + negative;
    }
}
