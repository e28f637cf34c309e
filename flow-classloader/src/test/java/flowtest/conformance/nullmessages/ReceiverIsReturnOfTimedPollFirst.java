package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** A method called on the null that {@code BlockingDeque.pollFirst(timeout)} returns. */
public final class ReceiverIsReturnOfTimedPollFirst implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        BlockingDeque<String> q = new LinkedBlockingDeque<>();
        return q.pollFirst(2, TimeUnit.MILLISECONDS).isEmpty();
    }
}
