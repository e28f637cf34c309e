package flowtest.conformance.primitives;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;

/**
 * {@code ForkJoinTask.quietlyJoin()} of a task a pool thread is still running: it ends once the flow waits
 * for it (a task of 5 ms could end first on a loaded machine, as {@link ForkJoinTaskJoin}'s did).
 */
public final class ForkJoinTaskQuietlyJoin implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        ForkJoinPool pool = new ForkJoinPool(1);
        try {
            CompletableFuture<Integer> value = Async.onceWaiting(42);
            ForkJoinTask<Integer> task = pool.submit(() -> value.join());
            task.quietlyJoin();
            return "joined " + task.getRawResult() + ", normally " + task.isCompletedNormally();
        } finally {
            pool.shutdown();
        }
    }
}
