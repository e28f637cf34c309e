package flowtest.conformance.primitives;

import flowtest.support.Spawn;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** {@code put()} into a full queue of one slot that a plain thread drains. */
public final class PutIntoFullQueue implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        BlockingQueue<Integer> queue = new ArrayBlockingQueue<>(1);
        java.util.concurrent.Future<Integer> drained = Spawn.onThread(() -> {
            int sum = 0;
            for (int i = 0; i < 3; i++) {
                Thread.sleep(2);
                Integer v = queue.poll(5, TimeUnit.SECONDS);
                sum += v == null ? -1000 : v;
            }
            return sum;
        });
        for (int i = 1; i <= 3; i++) {
            queue.put(i);
        }
        return "drained " + drained.get(5, TimeUnit.SECONDS);
    }
}
