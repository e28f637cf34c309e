package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** A method called on the null {@code CompletableFuture.join()} returned, with awaits among its arguments. */
public final class CallOnReturnOfJoinAcrossAwaitedArguments implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        CompletableFuture<java.util.Map<String, Object>> f = Async.later(null);
        return f.join().put(Async.later("k").get(), Async.later((Object) "v").get());
    }
}
