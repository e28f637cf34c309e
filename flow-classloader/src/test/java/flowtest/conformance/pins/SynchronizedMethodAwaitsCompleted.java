package flowtest.conformance.pins;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/** A {@code synchronized} method awaits a future that is already complete. */
public final class SynchronizedMethodAwaitsCompleted implements Callable<Object> {

    private synchronized String locked() throws Exception {
        return CompletableFuture.completedFuture("locked").get();
    }

    @Override
    public Object call() throws Exception {
        return locked();
    }
}
