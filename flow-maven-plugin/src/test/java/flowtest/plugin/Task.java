package flowtest.plugin;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/** Awaits a future through an in-scope lambda, with no pin site. */
public class Task implements Callable<String> {

    interface Step {
        String apply(CompletableFuture<String> f) throws Exception;
    }

    private final CompletableFuture<String> future;

    public Task(CompletableFuture<String> future) {
        this.future = future;
    }

    @Override
    public String call() throws Exception {
        Step step = f -> "got " + f.join();
        return step.apply(future);
    }
}
