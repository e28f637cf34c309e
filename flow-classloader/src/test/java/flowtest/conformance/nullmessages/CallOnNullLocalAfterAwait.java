package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/** A call on a null local after an await. */
public final class CallOnNullLocalAfterAwait implements Callable<Object> {
    private String text;
    private int[] numbers;
    private Object lock;

    @Override
    public Object call() throws Exception {
        String s = null;
        int n = Async.later(1).get();
        return s.substring(n);
    }
}
