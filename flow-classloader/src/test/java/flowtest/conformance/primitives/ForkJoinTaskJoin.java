package flowtest.conformance.primitives;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;

/** {@code ForkJoinTask.join()} of a task that waits for a value arriving later. */
public final class ForkJoinTaskJoin implements Callable<Object> {
    @Override
    public Object call() {
        ForkJoinTask<Integer> task = ForkJoinPool.commonPool().submit(() -> Async.later(41).join() + 1);
        return task.join();
    }
}
