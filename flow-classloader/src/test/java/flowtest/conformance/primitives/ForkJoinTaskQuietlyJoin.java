package flowtest.conformance.primitives;

import java.util.concurrent.Callable;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;

/** {@code ForkJoinTask.quietlyJoin()} of a task a pool thread is still running. */
public final class ForkJoinTaskQuietlyJoin implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        ForkJoinPool pool = new ForkJoinPool(1);
        try {
            ForkJoinTask<Integer> task = pool.submit(() -> {
                Thread.sleep(5);
                return 42;
            });
            task.quietlyJoin();
            return "joined " + task.getRawResult() + ", normally " + task.isCompletedNormally();
        } finally {
            pool.shutdown();
        }
    }
}
