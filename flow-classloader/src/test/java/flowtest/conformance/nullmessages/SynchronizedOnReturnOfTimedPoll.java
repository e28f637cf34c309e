package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** {@code synchronized} on the null that {@code BlockingQueue.poll(timeout)} returns. */
public final class SynchronizedOnReturnOfTimedPoll implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        BlockingQueue<Object> q = new LinkedBlockingQueue<>();
        synchronized (q.poll(2, TimeUnit.MILLISECONDS)) {
            return "locked";
        }
    }
}
