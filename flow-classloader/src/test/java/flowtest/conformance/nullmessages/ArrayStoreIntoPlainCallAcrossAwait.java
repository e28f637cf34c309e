package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** An array store into the null array a plain call returned, the stored value awaited. */
public final class ArrayStoreIntoPlainCallAcrossAwait implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        buffer()[0] = Async.later(3L).get();
        return "stored";
    }

    private static long[] buffer() {
        return null;
    }
}
