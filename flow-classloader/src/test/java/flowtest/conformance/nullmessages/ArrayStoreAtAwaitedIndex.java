package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** An array store into a null local array at an awaited index. */
public final class ArrayStoreAtAwaitedIndex implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        long[] a = none();
        a[Async.later(1).get()] = 5L;
        return a;
    }

    private static long[] none() {
        return null;
    }
}
