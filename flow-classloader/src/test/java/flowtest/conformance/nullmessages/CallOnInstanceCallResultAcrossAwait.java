package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** A method called on the null an instance method returned, with an await among its arguments. */
public final class CallOnInstanceCallResultAcrossAwait implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        return name().compareTo(Async.later("x").get());
    }

    private String name() {
        return null;
    }
}
