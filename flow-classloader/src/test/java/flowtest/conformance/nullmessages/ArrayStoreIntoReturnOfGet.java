package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** An array store into the null array that {@code Future.get()} returns. */
public final class ArrayStoreIntoReturnOfGet implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Future<int[]> f = Async.later(null);
        f.get()[0] = 7;
        return "stored";
    }
}
