package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;

/** A call on a null local that the arguments reassign before the await ({@code s.concat((s = "y") + f.get())}). */
public final class CallOnNullLocalReassignedInArguments implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        String s = none();
        Future<String> f = Async.later("x");
        return s.concat((s = "y") + f.get());
    }

    private static String none() {
        return null;
    }
}
