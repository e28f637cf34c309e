package flowtest.scheduler;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/**
 * Recurses {@code depth} frames, each keeping primitives and an object of its own, waits twice at the
 * bottom, and sums every frame's locals on the way back: a parked stack as deep as asked.
 */
public class DeepFrames implements Callable<Object> {
    private final int depth;
    private final int seed;
    private final CompletableFuture<Integer> first;
    private final CompletableFuture<Integer> second;

    public DeepFrames(Integer depth, Integer seed, CompletableFuture<Integer> first, CompletableFuture<Integer> second) {
        this.depth = depth;
        this.seed = seed;
        this.first = first;
        this.second = second;
    }

    @Override
    public Object call() {
        return frame(depth);
    }

    private long frame(int n) {
        long l = seed * 1_000_003L - n;
        int i = seed ^ (n << 8);
        double d = n * -0.25;
        Object label = new StringBuilder("p").append(seed).append('/').append(n);
        long below = n == 0 ? first.join() * 31L + second.join() : frame(n - 1);
        return below * 7 + l + i + (long) d + label.toString().length();
    }
}
