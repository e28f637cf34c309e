package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** Array stores of elements taken from a queue filled later into a null local array in a loop. */
public final class ArrayStoreOfTakeInLoopIntoNullLocal implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        BlockingQueue<String> q = new LinkedBlockingQueue<>();
        Async.runLater(() -> q.add("a"));
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
