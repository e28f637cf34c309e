package flowtest.conformance.primitives;

import flowtest.support.Spawn;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;

/** {@code SynchronousQueue.put} to a plain thread waiting in {@code take}: a hand-off with no suspendable form, reported. */
public final class SynchronousQueuePutToWaitingThread implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        SynchronousQueue<String> queue = new SynchronousQueue<>();
        Future<String> taken = Spawn.onThread(queue::take);
        queue.put("x");
        return "put, taken " + taken.get(5, TimeUnit.SECONDS);
    }
}
