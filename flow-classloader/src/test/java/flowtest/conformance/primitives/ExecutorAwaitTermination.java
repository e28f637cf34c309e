package flowtest.conformance.primitives;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/** {@code ExecutorService.awaitTermination} of an executor finishing a short task, then of a terminated one. */
public final class ExecutorAwaitTermination implements Callable<Object> {

    /**
     * Waits (up to 10 s) until its executor is shut down, then 20 ms more, so the submitting flow asks for
     * termination while the task still runs unless it is held up for 20 ms between two calls (a 5 ms task
     * alone ended first at load average 8-15 on 2 cores, and the flow did not suspend).
     */
    static final class Nap implements Callable<Object> {
        private final ExecutorService executor;

        Nap(ExecutorService executor) {
            this.executor = executor;
        }

        @Override
        public Object call() throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!executor.isShutdown() && System.nanoTime() - deadline < 0) {
                TimeUnit.MILLISECONDS.sleep(1);
            }
            TimeUnit.MILLISECONDS.sleep(20);
            return null;
        }
    }

    @Override
    public Object call() throws Exception {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        executor.submit(new Nap(executor));
        executor.shutdown();
        boolean terminated = executor.awaitTermination(5, TimeUnit.SECONDS);
        return terminated + " " + executor.awaitTermination(0, TimeUnit.SECONDS);
    }
}
