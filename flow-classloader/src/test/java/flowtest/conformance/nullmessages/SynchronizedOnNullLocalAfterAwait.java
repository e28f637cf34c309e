package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** {@code synchronized} on a null local after an await. */
public final class SynchronizedOnNullLocalAfterAwait implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Object lock = none();
        String v = Async.later("x").get();
        synchronized (lock) {
            return v;
        }
    }

    private static Object none() {
        return null;
    }
}
