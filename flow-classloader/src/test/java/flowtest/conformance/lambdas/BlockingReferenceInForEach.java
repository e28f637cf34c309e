package flowtest.conformance.lambdas;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code futures.forEach(CompletableFuture::join)}: the result of the blocking reference is discarded.
 * The futures complete 500 ms later, so that the first await really blocks.
 */
public final class BlockingReferenceInForEach implements Callable<Object> {

    @Override
    public Object call() {
        List<CompletableFuture<Integer>> futures = List.of(
                CompletableFuture.supplyAsync(() -> 1, CompletableFuture.delayedExecutor(500, TimeUnit.MILLISECONDS)),
                CompletableFuture.supplyAsync(() -> 2, CompletableFuture.delayedExecutor(500, TimeUnit.MILLISECONDS)));
        futures.forEach(CompletableFuture::join);
        return futures.get(0).isDone() && futures.get(1).isDone();
    }
}
