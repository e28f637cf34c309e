package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/** Unboxing the null returned by {@code Future.get()}. */
public final class UnboxingReturnOfGet implements Callable<Object> {
    private String text;
    private int[] numbers;
    private Object lock;

    @Override
    public Object call() throws Exception {
        Future<Integer> f = Async.later(null);
        int n = f.get();
        return n + 1;
    }
}
