package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/** Unboxing a null local after an await. */
public final class UnboxingNullLocal implements Callable<Object> {
    private String text;
    private int[] numbers;
    private Object lock;

    @Override
    public Object call() throws Exception {
        Integer boxed = null;
        long n = Async.later(5L).get() + boxed;
        return n;
    }
}
