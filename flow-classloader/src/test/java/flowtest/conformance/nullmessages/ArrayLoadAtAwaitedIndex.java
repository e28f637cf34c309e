package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** An array load from a null local array at an awaited index. */
public final class ArrayLoadAtAwaitedIndex implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        double[] a = none();
        return a[Async.later(0).get()];
    }

    private static double[] none() {
        return null;
    }
}
