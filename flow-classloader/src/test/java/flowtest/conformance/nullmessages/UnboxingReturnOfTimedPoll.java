package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** Unboxing of the null that {@code BlockingQueue.poll(timeout)} returns. */
public final class UnboxingReturnOfTimedPoll implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        BlockingQueue<Integer> q = new LinkedBlockingQueue<>();
        int n = q.poll(2, TimeUnit.MILLISECONDS);
        return n + 1;
    }
}
