package flowtest.conformance.primitives;

import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** {@code poll(timeout)} on an empty queue returns {@code null}, not before the timeout. */
public final class PollTimesOut implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        LinkedBlockingQueue<String> queue = new LinkedBlockingQueue<>();
        long start = System.nanoTime();
        String v = queue.poll(30, TimeUnit.MILLISECONDS);
        long waited = System.nanoTime() - start;
        return v + ", waited the timeout: " + (waited >= TimeUnit.MILLISECONDS.toNanos(30))
                + ", zero timeout: " + queue.poll(0, TimeUnit.SECONDS);
    }
}
