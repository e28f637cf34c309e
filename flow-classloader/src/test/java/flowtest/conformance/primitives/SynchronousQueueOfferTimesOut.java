package flowtest.conformance.primitives;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;

/** A timed {@code offer} to a {@code SynchronousQueue} nobody takes from: times out, reported. */
public final class SynchronousQueueOfferTimesOut implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        BlockingQueue<String> queue = new SynchronousQueue<>();
        return "offered " + queue.offer("x", 2, TimeUnit.MILLISECONDS);
    }
}
