package flowtest.conformance.lambdas;

import flowtest.support.Async;
import java.util.concurrent.Callable;

/** Lambdas created in a static initializer and in a constructor, called later (one awaiting). */
public final class LambdasInInitializers implements Callable<Object> {

    private static final Fn<Integer, Integer> SQUARE = x -> x * x;
    private static final Fn<Integer, Integer> SLOW_SQUARE = x -> Async.later(x).get() * x;

    private final Fn<Integer, String> labeller;
    private final Fn<Integer, String> slowLabeller;
    private final String prefix = "n";

    public LambdasInInitializers() {
        labeller = x -> prefix + x;
        slowLabeller = x -> prefix + Async.later(x).get();
    }

    @Override
    public Object call() throws Exception {
        return SQUARE.apply(4) + "," + SLOW_SQUARE.apply(5) + "," + labeller.apply(6) + "," + slowLabeller.apply(7);
    }
}
