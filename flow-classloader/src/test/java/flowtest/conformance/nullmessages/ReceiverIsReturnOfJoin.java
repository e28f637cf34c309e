package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/** A method called on the null returned by {@code CompletableFuture.join()}. */
public final class ReceiverIsReturnOfJoin implements Callable<Object> {
    private String text;
    private int[] numbers;
    private Object lock;

    @Override
    public Object call() throws Exception {
        return Async.<String>later(null).join().isEmpty();
    }
}
