package flowtest.conformance.dispatch;

import java.util.concurrent.Callable;
import java.util.function.Function;

/**
 * A null receiver at a call site that dispatches to in-scope overrides: the same
 * {@code NullPointerException}, helpful message included.
 */
public final class NullReceiver implements Callable<Object> {

    private Function<String, Integer> lookup;

    @Override
    public Object call() {
        Function<String, Integer> f = new FunctionThroughInterface.Lookup();
        int known = f.apply("abc");
        return known + lookup.apply("x");
    }
}
