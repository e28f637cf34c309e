package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** A method called on the null that {@code BlockingQueue.poll(timeout)} returns after its timeout. */
public final class ReceiverIsReturnOfTimedPoll implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        BlockingQueue<String> q = new LinkedBlockingQueue<>();
        return q.poll(2, TimeUnit.MILLISECONDS).trim();
    }
}
