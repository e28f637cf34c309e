package flowtest.conformance.nullmessages;

import java.util.concurrent.Callable;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A method called on the null that {@code PriorityBlockingQueue.poll(timeout)} returns, called on the
 * class: no holder of that class can hand the result over, so the message loses its "because" part.
 */
public final class ReceiverIsReturnOfClassOwnedTimedPoll implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        PriorityBlockingQueue<String> q = new PriorityBlockingQueue<>();
        return q.poll(2, TimeUnit.MILLISECONDS).trim();
    }
}
