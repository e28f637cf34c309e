package flowtest.conformance.primitives;

import flowtest.support.Async;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingDeque;

/** {@code take()} of items another thread adds later. */
public final class TakeFromOtherThread implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        BlockingQueue<String> queue = new LinkedBlockingDeque<>();
        StringBuilder b = new StringBuilder();
        for (String s : new String[] {"a", "b", "c"}) {
            Async.runLater(() -> queue.add(s));
            b.append(queue.take());
        }
        return b.toString();
    }
}
