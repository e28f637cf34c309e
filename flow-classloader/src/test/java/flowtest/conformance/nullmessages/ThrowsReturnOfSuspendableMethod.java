package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** {@code throw} of the null that an in-scope method returns after it awaited. */
public final class ThrowsReturnOfSuspendableMethod implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        throw failure();
    }

    private static RuntimeException failure() throws Exception {
        return Async.later((RuntimeException) null).get();
    }
}
