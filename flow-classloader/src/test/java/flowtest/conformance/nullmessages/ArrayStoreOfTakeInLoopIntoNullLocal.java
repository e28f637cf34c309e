package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/**
 * Array stores of elements taken from a queue filled once the flow waits into a null local array in a
 * loop (filled 2 ms later, a descheduled flow found the element there: no suspension, once in 150 runs
 * at load 13).
 */
public final class ArrayStoreOfTakeInLoopIntoNullLocal implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        BlockingQueue<String> q = new LinkedBlockingQueue<>();
        Async.onceWaiting("a").thenAccept(q::add);
        String[] out = none();
        for (int i = 0; i < 1; i++) {
            out[i] = q.take();
        }
        return out;
    }

    private static String[] none() {
        return null;
    }
}
