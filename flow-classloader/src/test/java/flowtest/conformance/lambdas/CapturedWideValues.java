package flowtest.conformance.lambdas;

import flowtest.support.Async;
import java.util.concurrent.Callable;

/** Lambdas capturing long, double, int, char, boolean and references, with and without awaiting. */
public final class CapturedWideValues implements Callable<Object> {

    private final double scale = 0.5;

    @Override
    public Object call() throws Exception {
        long big = 1L << 40;
        double d = 2.25;
        int i = 3;
        char c = 'q';
        boolean flag = true;
        String s = "s";
        Fn<Long, String> pure = x -> (big + x) + "/" + (d * i) + c + flag + s + scale;
        Fn<Long, String> awaiting = x -> (Async.later(big).get() + x) + "/" + (Async.later(d).get() * i) + c + flag + s + scale;
        IntToLong prim = x -> big + x + (long) d;
        return pure.apply(1L) + "," + awaiting.apply(2L) + "," + prim.apply(5);
    }
}
