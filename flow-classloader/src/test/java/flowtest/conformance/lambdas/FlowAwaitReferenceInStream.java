package flowtest.conformance.lambdas;

import dev.flow.Flow;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * {@code stream().map(Flow::await)}: Flow's own await as a method reference called back by the JDK.
 * The futures complete 500 ms later, so that the first await really blocks.
 */
public final class FlowAwaitReferenceInStream implements Callable<Object> {

    @Override
    public Object call() {
        List<CompletableFuture<String>> futures = List.of(
                CompletableFuture.supplyAsync(() -> "a", CompletableFuture.delayedExecutor(500, TimeUnit.MILLISECONDS)),
                CompletableFuture.supplyAsync(() -> "b", CompletableFuture.delayedExecutor(500, TimeUnit.MILLISECONDS)));
        return futures.stream().map(Flow::await).collect(Collectors.joining(","));
    }
}
