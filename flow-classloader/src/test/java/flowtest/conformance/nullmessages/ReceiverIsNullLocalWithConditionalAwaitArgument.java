package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** A method called on a null local with a conditional expression holding an await among its arguments. */
public final class ReceiverIsNullLocalWithConditionalAwaitArgument implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        String s = none();
        boolean wait = Async.later(Boolean.TRUE).get();
        return s.concat(wait ? Async.later("x").get() : "y");
    }

    private static String none() {
        return null;
    }
}
