package flowtest.scheduler;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/** Waits in a method of its own for a future completed by the test. */
public class Parked implements Callable<Object> {
    private final CompletableFuture<String> future;

    public Parked(CompletableFuture<String> future) {
        this.future = future;
    }

    @Override
    public Object call() throws Exception {
        return waitForGreeting();
    }

    private String waitForGreeting() throws Exception {
        return future.get();
    }
}
