package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** A field read of the null that {@code BlockingQueue.poll(timeout)} returns. */
public final class FieldOfReturnOfTimedPoll implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        BlockingQueue<Holder> q = new ArrayBlockingQueue<>(1);
        return q.poll(2, TimeUnit.MILLISECONDS).value;
    }

    static final class Holder {
        String value;
    }
}
