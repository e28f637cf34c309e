package dev.flow.bench.vt;

/**
 * Calls {@link Thread#yield()} {@code cycles} times at stack depth {@code depth} (1, 3 or 10 frames
 * of this class, {@code run()} included). In a virtual thread every yield unmounts it and submits
 * it to the virtual-thread scheduler again.
 */
public final class VtYieldLoop implements Runnable {

    private final int depth;
    private final int cycles;
    /** Sum of the values seen, so the work is not dead. */
    public volatile long sum;

    public VtYieldLoop(int depth, int cycles) {
        if (depth != 1 && depth != 3 && depth != 10) {
            throw new IllegalArgumentException("depth: " + depth + " (expected: 1, 3 or 10)");
        }
        this.depth = depth;
        this.cycles = cycles;
    }

    @Override
    public void run() {
        long s = 0;
        for (int i = 0; i < cycles; i++) {
            switch (depth) {
                case 1:
                    Thread.yield();
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

    private int f9(int x) { return f8(x + 1) + 1; }
    private int f8(int x) { return f7(x + 1) + 1; }
    private int f7(int x) { return f6(x + 1) + 1; }
    private int f6(int x) { return f5(x + 1) + 1; }
    private int f5(int x) { return f4(x + 1) + 1; }
    private int f4(int x) { return f3(x + 1) + 1; }
    private int f3(int x) { return f2(x + 1) + 1; }
    private int f2(int x) { return f1(x + 1) + 1; }

    private int f1(int x) {
        Thread.yield();
        return x;
    }
}
