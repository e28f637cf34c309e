package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/** A method called on the null returned by {@code Future.get()}. */
public final class ReceiverIsReturnOfGet implements Callable<Object> {
    private String text;
    private int[] numbers;
    private Object lock;

    @Override
    public Object call() throws Exception {
        Future<String> f = Async.later(null);
        return f.get().trim();
    }
}
