package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** An array load from a null local array after an await. */
public final class ArrayLoadFromNullLocalAfterAwait implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        String[] a = none();
        String v = Async.later("x").get();
        return a[0] + v;
    }

    private static String[] none() {
        return null;
    }
}
