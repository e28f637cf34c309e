package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** Unboxing of the null that {@code CompletableFuture.join()} returns, as a {@code long}. */
public final class UnboxingReturnOfJoin implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        CompletableFuture<Long> f = Async.later(null);
        long n = f.join();
        return n * 2;
    }
}
