package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/** The length of a null array local, after an await. */
public final class ArrayLengthOfNullLocal implements Callable<Object> {
    private String text;
    private int[] numbers;
    private Object lock;

    @Override
    public Object call() throws Exception {
        String[] a = Async.<String[]>later(null).get();
        int n = Async.later(1).get();
        return a.length + n;
    }
}
