package dev.flow.bench.raw;

import org.apache.commons.javaflow.api.Continuation;
import org.apache.commons.javaflow.api.continuable;

/**
 * Calls {@link Continuation#suspend()} {@code cycles} times at stack depth {@code depth} (1, 3 or
 * 10 frames of this class, {@code run()} included): the same shape as {@code
 * dev.flow.bench.flows.YieldLoop}, on the bare engine.
 */
public final class RawYieldLoop implements Runnable {

    private final int depth;
    private final int cycles;
    /** Sum of the values seen, read by the benchmark so the work is not dead. */
    public long sum;

    public RawYieldLoop(int depth, int cycles) {
        if (depth != 1 && depth != 3 && depth != 10) {
            throw new IllegalArgumentException("depth: " + depth + " (expected: 1, 3 or 10)");
        }
        this.depth = depth;
        this.cycles = cycles;
    }

    @Override
    public @continuable void run() {
        long s = 0;
        for (int i = 0; i < cycles; i++) {
            switch (depth) {
                case 1:
                    Continuation.suspend();
                    s += i;
                    break;
                case 3:
                    s += f2(i);
                    break;
                default:
                    s += f9(i);
                    break;
            }
        }
        sum = s;
    }

    private @continuable int f9(int x) { return f8(x + 1) + 1; }
    private @continuable int f8(int x) { return f7(x + 1) + 1; }
    private @continuable int f7(int x) { return f6(x + 1) + 1; }
    private @continuable int f6(int x) { return f5(x + 1) + 1; }
    private @continuable int f5(int x) { return f4(x + 1) + 1; }
    private @continuable int f4(int x) { return f3(x + 1) + 1; }
    private @continuable int f3(int x) { return f2(x + 1) + 1; }
    private @continuable int f2(int x) { return f1(x + 1) + 1; }

    private @continuable int f1(int x) {
        Continuation.suspend();
        return x;
    }
}
