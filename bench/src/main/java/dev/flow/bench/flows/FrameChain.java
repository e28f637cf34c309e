package dev.flow.bench.flows;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/**
 * A call chain that never suspends: {@code call()} runs {@code iterations} times a chain of {@code
 * depth} frames (1 or 10: {@code l1}, or {@code l10 .. l1}); each level does a little arithmetic and
 * the bottom one joins an already-completed future (the await fast path). Loaded normally it is
 * plain code; loaded through the {@code ContinuationClassLoader} every {@code l*} and {@code call()}
 * is instrumented because {@code join()} is a suspension point.
 */
public final class FrameChain implements Callable<Object> {

    private final CompletableFuture<Integer> done;
    private final int depth;
    private final int iterations;

    public FrameChain(CompletableFuture<Integer> done, int depth, int iterations) {
        if (!done.isDone()) {
            throw new IllegalArgumentException("done: not completed (expected: a completed future)");
        }
        if (depth != 1 && depth != 10) {
            throw new IllegalArgumentException("depth: " + depth + " (expected: 1 or 10)");
        }
        this.done = done;
        this.depth = depth;
        this.iterations = iterations;
    }

    @Override
    public Object call() {
        long sum = 0;
        if (depth == 1) {
            for (int i = 0; i < iterations; i++) {
                sum += l1(i);
            }
        } else {
            for (int i = 0; i < iterations; i++) {
                sum += l10(i);
            }
        }
        return sum;
    }

    private int l10(int x) { return l9(x + 10) * 31 + 10; }
    private int l9(int x) { return l8(x + 9) * 31 + 9; }
    private int l8(int x) { return l7(x + 8) * 31 + 8; }
    private int l7(int x) { return l6(x + 7) * 31 + 7; }
    private int l6(int x) { return l5(x + 6) * 31 + 6; }
    private int l5(int x) { return l4(x + 5) * 31 + 5; }
    private int l4(int x) { return l3(x + 4) * 31 + 4; }
    private int l3(int x) { return l2(x + 3) * 31 + 3; }
    private int l2(int x) { return l1(x + 2) * 31 + 2; }

    private int l1(int x) {
        return done.join() + x;
    }
}
