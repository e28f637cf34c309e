package flowtest.conformance.pins;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/** A JDK callback awaits futures that are already complete. */
public final class CallbackAwaitsCompleted implements Callable<Object> {
    private int sum;

    @Override
    public Object call() {
        List.of(1, 2, 3).forEach(i -> sum += CompletableFuture.completedFuture(i).join());
        return sum;
    }
}
