package flowtest.conformance.primitives;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/** {@code ExecutorService.awaitTermination} of an executor finishing a short task, then of a terminated one. */
public final class ExecutorAwaitTermination implements Callable<Object> {

    /** Sleeps 5 ms. */
    static final class Nap implements Callable<Object> {
        @Override
        public Object call() throws InterruptedException {
            TimeUnit.MILLISECONDS.sleep(5);
            return null;
        }
    }

    @Override
    public Object call() throws Exception {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        executor.submit(new Nap());
        executor.shutdown();
        boolean terminated = executor.awaitTermination(5, TimeUnit.SECONDS);
        return terminated + " " + executor.awaitTermination(0, TimeUnit.SECONDS);
    }
}
