package dev.flow.bench.flows;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/**
 * Blocks at stack depth 3 ({@code call() -> l2 -> l3}) on {@code future.join()}; returns the
 * future's value + 2. Used by {@code SuspendedFlowMemory}.
 */
public final class ParkedAtDepth3 implements Callable<Object> {

    private final CompletableFuture<Integer> future;

    public ParkedAtDepth3(CompletableFuture<Integer> future) {
        this.future = future;
    }

    @Override
    public Object call() {
        return l2(1) + 1;
    }

    private int l2(int x) {
        return l3(x) + 1;
    }

    private int l3(int x) {
        return future.join() + x - 1;
    }
}
