package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** {@code throw} of the null that {@code Future.get(timeout)} returns. */
public final class ThrowsReturnOfTimedGet implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Future<Error> f = Async.later(null);
        throw f.get(5, TimeUnit.SECONDS);
    }
}
