package dev.flow.bench.vt;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Blocks at stack depth 3 ({@code run() -> l2 -> l3}) in {@code future.join()}; the virtual-thread
 * twin of {@code dev.flow.bench.flows.ParkedAtDepth3}. Counts itself in {@code arrived} just
 * before blocking and records the value + 2 in {@link #result}.
 */
public final class VtParkedAtDepth3 implements Runnable {

    private final CompletableFuture<Integer> future;
    private final AtomicInteger arrived;
    /** The future's value + 2 once done, -1 before. */
    public volatile int result = -1;

    public VtParkedAtDepth3(CompletableFuture<Integer> future, AtomicInteger arrived) {
        this.future = future;
        this.arrived = arrived;
    }

    @Override
    public void run() {
        result = l2(1) + 1;
    }

    private int l2(int x) {
        return l3(x) + 1;
    }

    private int l3(int x) {
        arrived.incrementAndGet();
        return future.join() + x - 1;
    }
}
