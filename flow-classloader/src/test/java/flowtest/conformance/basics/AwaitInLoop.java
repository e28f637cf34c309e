package flowtest.conformance.basics;

import flowtest.support.Async;
import java.util.concurrent.Callable;

/** Sums values that arrive later, awaiting each one. */
public final class AwaitInLoop implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        long sum = 0;
        for (int i = 1; i <= 5; i++) {
            sum += Async.later(i).get();
        }
        return sum;
    }
}
