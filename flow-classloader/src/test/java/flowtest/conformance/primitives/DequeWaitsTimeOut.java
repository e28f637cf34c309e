package flowtest.conformance.primitives;

import java.util.concurrent.BlockingDeque;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;

/**
 * Timed {@code BlockingDeque} waits give up after their timeout: {@code pollFirst}/{@code pollLast} on
 * an empty deque return {@code null}, {@code offerFirst}/{@code offerLast} on a full one {@code false};
 * a null element is refused as loaded normally.
 */
public final class DequeWaitsTimeOut implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        BlockingDeque<String> empty = new LinkedBlockingDeque<>();
        BlockingDeque<String> full = new LinkedBlockingDeque<>(1);
        full.add("x");
        long start = System.nanoTime();
        Object a = empty.pollFirst(10, TimeUnit.MILLISECONDS);
        Object b = empty.pollLast(10, TimeUnit.MILLISECONDS);
        boolean c = full.offerFirst("y", 10, TimeUnit.MILLISECONDS);
        boolean d = full.offerLast("y", 10, TimeUnit.MILLISECONDS);
        long waited = System.nanoTime() - start;
        String nullElement;
        try {
            full.offerFirst(null, 1, TimeUnit.MILLISECONDS);
            nullElement = "accepted";
        } catch (NullPointerException e) {
            nullElement = "refused " + e.getMessage();
        }
        return a + " " + b + " " + c + " " + d + ", waited the timeouts: "
                + (waited >= TimeUnit.MILLISECONDS.toNanos(40)) + ", null " + nullElement + ", " + full;
    }
}
