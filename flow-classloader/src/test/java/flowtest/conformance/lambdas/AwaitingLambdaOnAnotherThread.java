package flowtest.conformance.lambdas;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * {@code CompletableFuture.supplyAsync(lambda, executor)} with an awaiting lambda: the lambda runs on
 * another thread, outside any flow, and blocks there as it would without the loader; the flow awaits
 * the result. The lambda's value comes once the flow waits (the flow found the result ready when the value
 * came 1 ms after the other thread waited for it, on a loaded machine: no suspension).
 */
public final class AwaitingLambdaOnAnotherThread implements Callable<Object> {

    @Override
    public Object call() {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            CompletableFuture<String> x = Async.onceWaiting("x");
            CompletableFuture<String> f = CompletableFuture.supplyAsync(() -> x.join() + "y", executor);
            return f.join();
        } finally {
            executor.shutdown();
        }
    }
}
