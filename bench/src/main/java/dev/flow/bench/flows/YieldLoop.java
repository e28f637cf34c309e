package dev.flow.bench.flows;

import dev.flow.Flow;
import dev.flow.spi.Awaitable;
import java.util.concurrent.Callable;

/**
 * Awaits {@code awaitable} {@code cycles} times at stack depth {@code depth} (1, 3 or 10): the
 * number of frames of this class on the stack at the await, {@code call()} included. With {@link
 * dev.flow.bench.support.Yield} every await suspends and is resumed at once by the same worker.
 */
public final class YieldLoop implements Callable<Object> {

    private final Awaitable awaitable;
    private final int depth;
    private final int cycles;

    public YieldLoop(Awaitable awaitable, int depth, int cycles) {
        if (depth != 1 && depth != 3 && depth != 10) {
            throw new IllegalArgumentException("depth: " + depth + " (expected: 1, 3 or 10)");
        }
        this.awaitable = awaitable;
        this.depth = depth;
        this.cycles = cycles;
    }

    @Override
    public Object call() {
        long sum = 0;
        for (int i = 0; i < cycles; i++) {
            switch (depth) {
                case 1:
                    Flow.await(awaitable);
                    sum += i;
                    break;
                case 3:
                    sum += f2(i);
                    break;
                default:
                    sum += f9(i);
                    break;
            }
        }
        return sum;
    }

    private int f9(int x) { return f8(x + 1) + 1; }
    private int f8(int x) { return f7(x + 1) + 1; }
    private int f7(int x) { return f6(x + 1) + 1; }
    private int f6(int x) { return f5(x + 1) + 1; }
    private int f5(int x) { return f4(x + 1) + 1; }
    private int f4(int x) { return f3(x + 1) + 1; }
    private int f3(int x) { return f2(x + 1) + 1; }
    private int f2(int x) { return f1(x + 1) + 1; }

    private int f1(int x) {
        Flow.await(awaitable);
        return x;
    }
}
