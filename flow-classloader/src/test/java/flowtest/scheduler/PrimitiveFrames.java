package flowtest.scheduler;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/**
 * Keeps locals of every primitive type and references in three frames across two waits, so that a
 * parked stack holds large, small and negative values of each kind.
 */
public class PrimitiveFrames implements Callable<Object> {
    private final int seed;
    private final CompletableFuture<Integer> first;
    private final CompletableFuture<Integer> second;

    public PrimitiveFrames(Integer seed, CompletableFuture<Integer> first, CompletableFuture<Integer> second) {
        this.seed = seed;
        this.first = first;
        this.second = second;
    }

    @Override
    public Object call() {
        long big = Long.MIN_VALUE + seed;
        double d = seed * -1.5e300;
        String name = "s" + seed;
        String inner = outer((byte) seed, (short) -seed, (char) (seed * 31), seed % 2 == 0);
        return name + ":" + big + ":" + d + ":" + inner;
    }

    private String outer(byte b, short s, char c, boolean z) {
        float f = -seed / 7f;
        long l = -seed * 1_000_000_007L;
        Object ref = new StringBuilder("r").append(seed);
        int got = inner(seed * 4096, l);
        return b + "," + s + "," + (int) c + "," + z + "," + f + "," + l + "," + ref + "," + got;
    }

    private int inner(int i, long l) {
        int a = first.join();
        long m = l ^ a;
        int b = second.join();
        return (int) (i + m + b);
    }
}
