package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/** {@code synchronized} on the null returned by {@code Future.get()}. */
public final class SynchronizedOnReturnOfGet implements Callable<Object> {
    private String text;
    private int[] numbers;
    private Object lock;

    @Override
    public Object call() throws Exception {
        Future<Object> f = Async.later(null);
        synchronized (f.get()) {
            return "never";
        }
    }
}
