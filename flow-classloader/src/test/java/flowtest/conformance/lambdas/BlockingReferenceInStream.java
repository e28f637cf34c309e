package flowtest.conformance.lambdas;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * {@code stream().map(CompletableFuture::join)}: a blocking method reference called back by the JDK.
 * The futures complete 500 ms later, so that the first await really blocks.
 */
public final class BlockingReferenceInStream implements Callable<Object> {

    @Override
    public Object call() {
        List<CompletableFuture<Integer>> futures = List.of(
                CompletableFuture.supplyAsync(() -> 1, CompletableFuture.delayedExecutor(500, TimeUnit.MILLISECONDS)),
                CompletableFuture.supplyAsync(() -> 2, CompletableFuture.delayedExecutor(500, TimeUnit.MILLISECONDS)));
        return futures.stream().map(CompletableFuture::join).collect(Collectors.toList());
    }
}
