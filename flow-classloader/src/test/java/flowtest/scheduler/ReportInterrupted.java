package flowtest.scheduler;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/** Reports the interrupt flag when it starts, then suspends on {@code future}. */
public class ReportInterrupted implements Callable<Object> {
    private final CompletableFuture<?> future;

    public ReportInterrupted(CompletableFuture<?> future) {
        this.future = future;
    }

    @Override
    public Object call() {
        boolean flag = Thread.currentThread().isInterrupted();
        future.join();
        return flag;
    }
}
