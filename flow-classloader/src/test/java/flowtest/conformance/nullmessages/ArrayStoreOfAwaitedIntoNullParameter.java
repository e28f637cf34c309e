package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** An array store of an awaited value into a null parameter. */
public final class ArrayStoreOfAwaitedIntoNullParameter implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        return fill(null, 3);
    }

    private static Object fill(String[] target, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            target[i] = Async.later("x" + i).get();
        }
        return target;
    }
}
