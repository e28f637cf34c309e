package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** {@code throw} of the null that {@code BlockingQueue.poll(timeout)} returns. */
public final class ThrowsReturnOfTimedPoll implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        BlockingQueue<RuntimeException> q = new LinkedBlockingQueue<>();
        throw q.poll(2, TimeUnit.MILLISECONDS);
    }
}
