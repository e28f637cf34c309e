package flowtest.conformance.primitives;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** {@code offer(e, timeout)} into a full queue returns {@code false}, not before the timeout. */
public final class OfferTimesOut implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        ArrayBlockingQueue<String> queue = new ArrayBlockingQueue<>(1);
        queue.add("first");
        long start = System.nanoTime();
        boolean offered = queue.offer("second", 30, TimeUnit.MILLISECONDS);
        long waited = System.nanoTime() - start;
        return offered + ", waited the timeout: " + (waited >= TimeUnit.MILLISECONDS.toNanos(30)) + ", " + queue;
    }
}
