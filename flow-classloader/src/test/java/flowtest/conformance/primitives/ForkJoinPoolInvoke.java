package flowtest.conformance.primitives;

import java.util.concurrent.Callable;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;

/** {@code ForkJoinPool.invoke}: the wait is the pool's own code, so it is reported. */
public final class ForkJoinPoolInvoke implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        ForkJoinPool pool = new ForkJoinPool(1);
        try {
            return "invoked " + pool.invoke(ForkJoinTask.adapt(() -> 6 * 7));
        } finally {
            pool.shutdown();
        }
    }
}
