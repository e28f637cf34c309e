package flowtest.conformance.nullmessages;

import flowtest.support.Async;
import java.util.concurrent.*;

/** Array stores of elements taken from a queue filled later into a null local array in a loop. */
public final class ArrayStoreOfTakeInLoopIntoNullLocal implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        BlockingQueue<String> q = new LinkedBlockingQueue<>();
        CompletableFuture.runAsync(() -> q.add("a"), CompletableFuture.delayedExecutor(2, TimeUnit.MILLISECONDS));
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
