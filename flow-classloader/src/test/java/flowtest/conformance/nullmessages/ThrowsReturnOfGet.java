package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/** {@code throw} of the null returned by {@code Future.get()}. */
public final class ThrowsReturnOfGet implements Callable<Object> {
    private String text;
    private int[] numbers;
    private Object lock;

    @Override
    public Object call() throws Exception {
        Future<RuntimeException> f = Async.later(null);
        throw f.get();
    }
}
