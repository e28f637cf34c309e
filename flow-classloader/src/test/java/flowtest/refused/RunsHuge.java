package flowtest.refused;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/** Runs {@link Huge}'s method, which the continuation engine cannot instrument, from a flow. */
public class RunsHuge implements Callable<Object> {
    private final CompletableFuture<Long> f;

    public RunsHuge(CompletableFuture<Long> f) {
        this.f = f;
    }

    @Override
    public Object call() {
        return new Huge().run(f);
    }
}
