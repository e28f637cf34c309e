package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/** A field read and a field write on the null returned by {@code Future.get()}. */
public final class FieldOfReturnOfGet implements Callable<Object> {
    private String text;
    private int[] numbers;
    private Object lock;

    @Override
    public Object call() throws Exception {
        Future<ReceiverIsReturnOfGet> f = Async.later(null);
        ReceiverIsReturnOfGet r = f.get();
        try {
            return r.hashCode();
        } catch (NullPointerException e) {
            Future<FieldOfReturnOfGet> g = Async.later(null);
            return g.get().text.length() + e.getMessage();
        }
    }
}
