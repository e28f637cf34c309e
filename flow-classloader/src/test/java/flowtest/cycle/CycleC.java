package flowtest.cycle;

import java.util.concurrent.CompletableFuture;

/** Third class of the cycle: the only suspension point of the cycle is here. */
public final class CycleC {
    private CycleC() {
    }

    static int c(CompletableFuture<Integer> f, int n) {
        return n == 0 ? f.join() : CycleA.a(f, n);
    }
}
