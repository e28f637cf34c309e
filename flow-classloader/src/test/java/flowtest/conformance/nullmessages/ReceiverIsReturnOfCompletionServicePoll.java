package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** A method called on the null that {@code CompletionService.poll(timeout)} returns. */
public final class ReceiverIsReturnOfCompletionServicePoll implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        CompletionService<String> cs = new ExecutorCompletionService<>(Runnable::run);
        return cs.poll(2, TimeUnit.MILLISECONDS).get();
    }
}
