package flowtest.conformance.primitives;

import flowtest.support.Async;
import flowtest.support.Spawn;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code put()} into a full queue of one slot that a plain thread drains, from once the flow waits to put
 * its second item (after a fixed 2 ms, a descheduled flow could find the slot free every time).
 */
public final class PutIntoFullQueue implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        BlockingQueue<Integer> queue = new ArrayBlockingQueue<>(1);
        CompletableFuture<Object> full = Async.onceWaiting(null);
        Spawn.onThread(() -> {
            full.join();
            for (int i = 0; i < 3; i++) {
                Thread.sleep(2);
                queue.poll(5, TimeUnit.SECONDS);
            }
            return null;
        });
        for (int i = 1; i <= 3; i++) {
            queue.put(i);
        }
        return "put 3 items";
    }
}
