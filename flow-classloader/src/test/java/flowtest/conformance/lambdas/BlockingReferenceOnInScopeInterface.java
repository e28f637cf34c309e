package flowtest.conformance.lambdas;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/** {@code CompletableFuture::join} as an in-scope functional interface: desugared, so it suspends. */
public final class BlockingReferenceOnInScopeInterface implements Callable<Object> {

    @Override
    public Object call() throws Exception {
        Fn<CompletableFuture<Integer>, Integer> join = CompletableFuture::join;
        return join.apply(Async.later(20)) + join.apply(Async.later(22));
    }
}
