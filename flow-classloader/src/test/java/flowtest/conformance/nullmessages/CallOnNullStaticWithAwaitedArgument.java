package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;

/** A call on a null static field with an awaited argument. */
public final class CallOnNullStaticWithAwaitedArgument implements Callable<Object> {
    private static final String NONE = none();

    @Override
    public Object call() throws Exception {
        Future<String> f = Async.later("x");
        return NONE.concat(f.get());
    }

    private static String none() {
        return null;
    }
}
