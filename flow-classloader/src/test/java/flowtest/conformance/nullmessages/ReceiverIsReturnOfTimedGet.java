package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** A method called on the null that {@code Future.get(timeout)} returns. */
public final class ReceiverIsReturnOfTimedGet implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Future<String> f = Async.later(null);
        return f.get(5, TimeUnit.SECONDS).length();
    }
}
