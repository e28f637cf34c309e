package flowtest.conformance.primitives;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** {@code ExecutorService.invokeAny}: the wait is the executor's own code, so it is reported. */
public final class InvokeAnyOnPool implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            return "any " + pool.invokeAny(List.<Callable<String>>of(() -> "same", () -> "same"));
        } finally {
            pool.shutdown();
        }
    }
}
