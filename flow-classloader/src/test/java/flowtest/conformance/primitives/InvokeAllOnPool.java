package flowtest.conformance.primitives;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** {@code ExecutorService.invokeAll}: the wait is the executor's own code, so it is reported. */
public final class InvokeAllOnPool implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            int sum = 0;
            for (Future<Integer> f : pool.invokeAll(List.<Callable<Integer>>of(() -> 1, () -> 2, () -> 3))) {
                sum += f.get();
            }
            return "sum " + sum;
        } finally {
            pool.shutdown();
        }
    }
}
