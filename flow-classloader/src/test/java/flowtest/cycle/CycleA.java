package flowtest.cycle;

import java.util.concurrent.CompletableFuture;

/** First of three classes calling each other in a cycle; only {@link CycleC} awaits. */
public final class CycleA {
    private CycleA() {
    }

    static int a(CompletableFuture<Integer> f, int n) {
        return n <= 0 ? CycleB.b(f, 0) : CycleB.b(f, n - 1) + 1;
    }
}
