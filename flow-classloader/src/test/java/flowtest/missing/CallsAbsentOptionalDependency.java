package flowtest.missing;

import flowtest.absent.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/** Calls an optional dependency only for an empty value, never in the test. */
public class CallsAbsentOptionalDependency implements Callable<Object> {
    private final CompletableFuture<String> f;

    public CallsAbsentOptionalDependency(CompletableFuture<String> f) {
        this.f = f;
    }

    @Override
    public Object call() {
        String s = f.join();
        return s.isEmpty() ? Optional.describe(s) : "got " + s;
    }
}
