package flowtest.cycle;

import java.util.concurrent.CompletableFuture;

/** Second class of the cycle A -> B -> C -> A. */
public final class CycleB {
    private CycleB() {
    }

    static int b(CompletableFuture<Integer> f, int n) {
        return CycleC.c(f, n);
    }
}
