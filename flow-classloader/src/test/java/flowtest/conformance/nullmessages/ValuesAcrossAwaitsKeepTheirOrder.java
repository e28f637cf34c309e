package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.Callable;

/**
 * Non-null values of every kind below awaited operands (a {@code long} local, constants, a field, an
 * array element, a local reassigned in the arguments, a compound assignment, a conditional around an
 * await) keep their values and order.
 */
public final class ValuesAcrossAwaitsKeepTheirOrder implements Callable<Object> {
    private String text = "t";
    private static final String PREFIX = prefix();

    @Override
    public Object call() throws Exception {
        long base = 40;
        int[] counts = {1, 2};
        String[] names = {"a", "b"};
        String s = "s";
        String r = names[1].concat(Async.later("x").get()) + this.text.concat(Async.later("y").get() == null ? "n"
                : Async.later("z").get()) + s.concat((s = "w") + Async.later("v").get());
        counts[1] += Async.later(5).get();
        long m = Math.max(base, (long) Async.later(2L).get());
        return PREFIX.concat(Async.later("-").get()) + base + counts[1] + r + m + text + s
                + (base + Async.later(3L).get() * base);
    }

    private static String prefix() {
        return "p";
    }
}
