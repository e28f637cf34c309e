package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;

/** A call on a null field of a field, with an awaited argument and more after it. */
public final class CallOnNullFieldChainWithAwaitedArgument implements Callable<Object> {
    private final CallOnNullFieldChainWithAwaitedArgument next;
    private String text;

    public CallOnNullFieldChainWithAwaitedArgument() {
        next = new CallOnNullFieldChainWithAwaitedArgument(0);
    }

    private CallOnNullFieldChainWithAwaitedArgument(int leaf) {
        next = null;
    }

    @Override
    public Object call() throws Exception {
        Future<String> f = Async.later("x");
        return next.text.concat(f.get() + next.hashCode());
    }
}
