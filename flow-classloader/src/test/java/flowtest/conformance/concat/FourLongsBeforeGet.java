package flowtest.conformance.concat;

import flowtest.support.Async;
import java.util.concurrent.Callable;

/** Four {@code long} operands, then an awaited value as the last operand. */
public final class FourLongsBeforeGet implements Callable<Object> {
    static String join(long a, long b, long c, long d) throws Exception {
        return "S" + a + b + c + d + Async.later("!").get();
    }

    @Override
    public Object call() throws Exception {
        return join(1L, 2L, 3L, Long.MAX_VALUE);
    }
}
