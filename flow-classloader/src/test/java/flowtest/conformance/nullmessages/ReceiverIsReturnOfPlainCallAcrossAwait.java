package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** A method called on the null that a plain call returned, with an await among its arguments. */
public final class ReceiverIsReturnOfPlainCallAcrossAwait implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Future<String> g = Async.later("x");
        return none().concat(g.get());
    }

    private static String none() {
        return null;
    }
}
