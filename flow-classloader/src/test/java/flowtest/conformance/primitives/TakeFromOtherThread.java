package flowtest.conformance.primitives;

import flowtest.support.Async;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingDeque;

/**
 * {@code take()} of items another thread adds later: the first once the flow waits, so that it waits at
 * least once however slow the machine.
 */
public final class TakeFromOtherThread implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        BlockingQueue<String> queue = new LinkedBlockingDeque<>();
        StringBuilder b = new StringBuilder();
        for (String s : new String[] {"a", "b", "c"}) {
            (s.equals("a") ? Async.onceWaiting(s) : Async.later(s)).thenAccept(queue::add);
            b.append(queue.take());
        }
        return b.toString();
    }
}
