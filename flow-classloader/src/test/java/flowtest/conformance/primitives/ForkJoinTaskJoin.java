package flowtest.conformance.primitives;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;

/**
 * {@code ForkJoinTask.join()} of a task that waits for a value arriving 100 ms after the task began to wait
 * for it: long enough for the flow to reach its {@code join()} first on a loaded machine (with a value
 * arriving 1 ms after, the task ended before a descheduled flow joined it: no suspension).
 */
public final class ForkJoinTaskJoin implements Callable<Object> {
    @Override
    public Object call() {
        ForkJoinTask<Integer> task = ForkJoinPool.commonPool().submit(() -> Async.awaitedFor(41, 100).join() + 1);
        return task.join();
    }
}
