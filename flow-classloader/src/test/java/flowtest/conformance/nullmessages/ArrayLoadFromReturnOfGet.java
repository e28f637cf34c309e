package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/** An array load from the null returned by {@code Future.get()}. */
public final class ArrayLoadFromReturnOfGet implements Callable<Object> {
    private String text;
    private int[] numbers;
    private Object lock;

    @Override
    public Object call() throws Exception {
        Future<int[]> f = Async.later(null);
        return f.get()[2];
    }
}
