package flowtest.conformance.concat;

import flowtest.support.Async;
import java.util.concurrent.Callable;

/** Ten wide operands, two awaits. */
public final class ManyWideOperands implements Callable<Object> {

    @Override
    public Object call() throws Exception {
        long a = 1, b = 2, c = 3, d = 4, e = 5;
        double f = .5, g = .25, h = .125, i = 1e10, j = -0.0;
        return a + "" + b + c + d + e + f + g + h + i + j + Async.later("|").get() + a + Async.later(9.5).get() + j;
    }
}
