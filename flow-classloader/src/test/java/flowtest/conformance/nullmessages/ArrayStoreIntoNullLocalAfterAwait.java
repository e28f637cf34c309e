package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** An array store into a null local array after an await. */
public final class ArrayStoreIntoNullLocalAfterAwait implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        int[] a = none();
        int v = Async.later(3).get();
        a[1] = v;
        return a;
    }

    private static int[] none() {
        return null;
    }
}
