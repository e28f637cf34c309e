package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** A method called on the null that an in-scope method returns after it awaited. */
public final class ReceiverIsReturnOfSuspendableMethod implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        return lookUp().trim();
    }

    private static String lookUp() throws Exception {
        return Async.later((String) null).get();
    }
}
