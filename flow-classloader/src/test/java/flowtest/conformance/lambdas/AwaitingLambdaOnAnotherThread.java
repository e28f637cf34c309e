package flowtest.conformance.lambdas;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * {@code CompletableFuture.supplyAsync(lambda, executor)} with an awaiting lambda: the lambda runs on
 * another thread, outside any flow, and blocks there as it would without the loader; the flow awaits
 * the result. The value comes 100 ms after the other thread began to wait for it, so that the flow awaits
 * first even on a loaded machine (1 ms after, a descheduled flow found the result ready: no suspension).
 */
public final class AwaitingLambdaOnAnotherThread implements Callable<Object> {

    @Override
    public Object call() {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            CompletableFuture<String> f = CompletableFuture.supplyAsync(() -> Async.awaitedFor("x", 100).join() + "y", executor);
            return f.join();
        } finally {
            executor.shutdown();
        }
    }
}
