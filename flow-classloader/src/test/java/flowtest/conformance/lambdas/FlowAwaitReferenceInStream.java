package flowtest.conformance.lambdas;

import dev.flow.Flow;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * {@code stream().map(Flow::await)}: Flow's own await as a method reference called back by the JDK.
 * The futures are already complete: strict mode must refuse the site although nothing would block.
 */
public final class FlowAwaitReferenceInStream implements Callable<Object> {

    @Override
    public Object call() {
        List<CompletableFuture<String>> futures = List.of(
                CompletableFuture.completedFuture("a"),
                CompletableFuture.completedFuture("b"));
        return futures.stream().map(Flow::await).collect(Collectors.joining(","));
    }
}
