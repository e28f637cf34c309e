package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/** {@code synchronized} on a null field after an await. */
public final class SynchronizedOnNullField implements Callable<Object> {
    private String text;
    private int[] numbers;
    private Object lock;

    @Override
    public Object call() throws Exception {
        int n = Async.later(1).get();
        synchronized (lock) {
            return n;
        }
    }
}
