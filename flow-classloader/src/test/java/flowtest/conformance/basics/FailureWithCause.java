package flowtest.conformance.basics;

import flowtest.support.Async;
import java.io.IOException;
import java.util.concurrent.Callable;

/** An awaited failure rethrown wrapped, with a suppressed exception from a finally-like cleanup. */
public final class FailureWithCause implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        try {
            return Async.failLater(new IOException("peer went away")).get();
        } catch (java.util.concurrent.ExecutionException e) {
            IllegalStateException wrapped = new IllegalStateException("request failed", e.getCause());
            wrapped.addSuppressed(new IOException("close failed"));
            throw wrapped;
        }
    }
}
