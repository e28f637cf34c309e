package flowtest.conformance.lambdas;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/**
 * {@code futures.forEach(CompletableFuture::join)}: the result of the blocking reference is discarded.
 * The futures are already complete: strict mode must refuse the site although nothing would block.
 */
public final class BlockingReferenceInForEach implements Callable<Object> {

    @Override
    public Object call() {
        List<CompletableFuture<Integer>> futures = List.of(
                CompletableFuture.completedFuture(1),
                CompletableFuture.completedFuture(2));
        futures.forEach(CompletableFuture::join);
        return futures.get(0).isDone() && futures.get(1).isDone();
    }
}
