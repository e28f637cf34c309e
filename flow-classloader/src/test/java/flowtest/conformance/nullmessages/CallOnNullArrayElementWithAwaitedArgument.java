package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;

/** A call on a null array element with an awaited argument ({@code parts[i].concat(f.get())}). */
public final class CallOnNullArrayElementWithAwaitedArgument implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        String[] parts = {"a", null};
        int i = 1;
        Future<String> f = Async.later("x");
        return parts[i].concat(f.get());
    }
}
