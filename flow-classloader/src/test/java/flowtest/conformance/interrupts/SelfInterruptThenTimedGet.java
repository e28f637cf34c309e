package flowtest.conformance.interrupts;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Interrupts itself, then a timed get on a pending future: InterruptedException, not a timeout. */
public class SelfInterruptThenTimedGet implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        CompletableFuture<String> pending = new CompletableFuture<>();
        Thread.currentThread().interrupt();
        return pending.get(10, TimeUnit.SECONDS);
    }
}
