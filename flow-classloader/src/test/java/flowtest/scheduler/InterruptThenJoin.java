package flowtest.scheduler;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/** Interrupts itself, joins {@code future} (uninterruptible), then reports whether the flag survived. */
public class InterruptThenJoin implements Callable<Object> {
    private final CompletableFuture<?> future;

    public InterruptThenJoin(CompletableFuture<?> future) {
        this.future = future;
    }

    @Override
    public Object call() {
        Thread.currentThread().interrupt();
        Object v = future.join();
        return v + ":" + Thread.interrupted();
    }
}
