package flowtest.conformance.dispatch;

import flowtest.support.Async;
import java.io.IOException;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;

/** An awaited failure propagates out of an in-scope callable called through {@code Callable.call}. */
public final class FailureThroughInterface implements Callable<Object> {

    static final class Fetch implements Callable<String> {
        @Override
        public String call() throws Exception {
            return Async.<String>failLater(new IOException("reset by peer")).get();
        }
    }

    @Override
    public Object call() throws Exception {
        Callable<String> c = new Fetch();
        try {
            return c.call();
        } catch (ExecutionException e) {
            throw new IllegalStateException("fetch failed", e);
        }
    }
}
