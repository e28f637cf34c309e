package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** {@code length} of the null array that {@code Future.get()} returns. */
public final class ArrayLengthOfReturnOfGet implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Future<int[]> f = Async.later(null);
        return f.get().length;
    }
}
