package flowtest.cycle;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/** Runs the cycle A -> B -> C -> A three rounds deep, awaiting {@code future} at the bottom. */
public final class CycleRun implements Callable<Object> {
    private final CompletableFuture<Integer> future;

    public CycleRun(CompletableFuture<Integer> future) {
        this.future = future;
    }

    @Override
    public Object call() {
        return CycleA.a(future, 3);
    }
}
