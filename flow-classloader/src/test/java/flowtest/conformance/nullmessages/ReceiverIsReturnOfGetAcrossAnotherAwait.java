package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** A method called on the null that {@code Future.get()} returned, with another await among its arguments. */
public final class ReceiverIsReturnOfGetAcrossAnotherAwait implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Future<String> f = Async.later(null);
        Future<String> g = Async.later("x");
        return f.get().concat(g.get());
    }
}
