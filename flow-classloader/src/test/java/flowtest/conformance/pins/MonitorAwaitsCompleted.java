package flowtest.conformance.pins;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/** An await inside {@code synchronized} of a future that is already complete. */
public final class MonitorAwaitsCompleted implements Callable<Object> {
    private final Object lock = new Object();

    @Override
    public Object call() {
        synchronized (lock) {
            return CompletableFuture.completedFuture(5).join() + 1;
        }
    }
}
