package flowtest.conformance.primitives;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;

/**
 * {@code ForkJoinTask.join()} of a task that waits for a value arriving once the flow waits for the task
 * (with a value arriving 1 ms after the task began to wait, the task ended before a descheduled flow
 * joined it: no suspension).
 */
public final class ForkJoinTaskJoin implements Callable<Object> {
    @Override
    public Object call() {
        CompletableFuture<Integer> value = Async.onceWaiting(41);
        ForkJoinTask<Integer> task = ForkJoinPool.commonPool().submit(() -> value.join() + 1);
        return task.join();
    }
}
