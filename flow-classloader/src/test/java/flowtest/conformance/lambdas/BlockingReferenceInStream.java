package flowtest.conformance.lambdas;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * {@code stream().map(CompletableFuture::join)}: a blocking method reference called back by the JDK.
 * The futures are already complete: strict mode must refuse the site although nothing would block.
 */
public final class BlockingReferenceInStream implements Callable<Object> {

    @Override
    public Object call() {
        List<CompletableFuture<Integer>> futures = List.of(
                CompletableFuture.completedFuture(1),
                CompletableFuture.completedFuture(2));
        return futures.stream().map(CompletableFuture::join).collect(Collectors.toList());
    }
}
