package flowtest.conformance.exceptions;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** {@code CompletableFuture.get(timeout)} on a future that never completes throws the JDK's {@code TimeoutException}. */
public final class CompletableFutureGetTimesOut implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        return new CompletableFuture<String>().get(20, TimeUnit.MILLISECONDS);
    }
}
