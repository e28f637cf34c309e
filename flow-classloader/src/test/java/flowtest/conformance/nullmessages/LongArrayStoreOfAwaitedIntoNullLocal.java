package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** A {@code long} array store of an awaited value into a null local array. */
public final class LongArrayStoreOfAwaitedIntoNullLocal implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        long[] a = none();
        long base = 10;
        a[0] = base + Async.later(2L).get();
        return a;
    }

    private static long[] none() {
        return null;
    }
}
