package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** A method called on the null that {@code Future.get()} returns, the result passed to another call. */
public final class ReceiverIsReturnOfGetPassedOn implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Future<String> f = Async.later(null);
        return String.valueOf(f.get().toUpperCase());
    }
}
