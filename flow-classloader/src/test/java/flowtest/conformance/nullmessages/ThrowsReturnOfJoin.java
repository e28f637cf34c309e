package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** {@code throw} of the null that {@code CompletableFuture.join()} returns. */
public final class ThrowsReturnOfJoin implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        CompletableFuture<IllegalStateException> f = Async.later(null);
        throw f.join();
    }
}
