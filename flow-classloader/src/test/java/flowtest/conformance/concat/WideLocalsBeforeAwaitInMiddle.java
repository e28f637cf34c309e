package flowtest.conformance.concat;

import flowtest.support.Async;
import java.util.concurrent.Callable;

/** Wide operands on both sides of an await in the middle of the concatenation. */
public final class WideLocalsBeforeAwaitInMiddle implements Callable<Object> {

    @Override
    public Object call() throws Exception {
        long a = 10;
        double b = 2.25;
        long c = -3;
        return "x" + a + b + c + Async.later(5L).get() + b + a + c;
    }
}
