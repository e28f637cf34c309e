package flowtest.conformance.concat;

import flowtest.support.Async;
import java.util.concurrent.Callable;

/** {@code double} and {@code long} operands mixed with others, then {@code join()}. */
public final class DoublesAndLongsBeforeJoin implements Callable<Object> {
    static String join(double a, long b, int c, double d, String e) {
        return a + "/" + b + "/" + c + "/" + d + "/" + e + "=" + Async.later(42).join();
    }

    @Override
    public Object call() throws Exception {
        return join(1.5, -7L, 3, Double.NaN, "e");
    }
}
