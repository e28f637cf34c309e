package flowtest.conformance.concat;

import flowtest.support.Async;
import java.util.concurrent.Callable;

/** Wide operands before an await, in a loop that keeps a long accumulator. */
public final class WideOperandsInLoop implements Callable<Object> {

    @Override
    public Object call() throws Exception {
        StringBuilder out = new StringBuilder();
        long total = 0;
        for (int k = 0; k < 3; k++) {
            long v = k * 1_000_000_000_000L;
            double w = k / 4.0;
            String s = "[" + v + w + total + Async.later(k).get() + "]";
            total += s.length();
            out.append(s);
        }
        return out.toString();
    }
}
