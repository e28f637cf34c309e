package flowtest.conformance.lambdas;

import flowtest.support.Async;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * {@code stream().map(CompletableFuture::join)} over futures that complete once awaited: the pinned
 * reference really blocks its worker.
 */
public final class BlockingReferenceToLaterFutures implements Callable<Object> {

    @Override
    public Object call() {
        List<CompletableFuture<Integer>> futures = List.of(Async.later(1), Async.later(2));
        return futures.stream().map(CompletableFuture::join).collect(Collectors.toList());
    }
}
