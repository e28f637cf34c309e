package flowtest.conformance.interrupts;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/** Interrupts itself, then gets a future that is not complete: InterruptedException, then the flag is clear. */
public class SelfInterruptThenGet implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        CompletableFuture<String> pending = new CompletableFuture<>();
        Thread.currentThread().interrupt();
        try {
            return pending.get();
        } catch (InterruptedException e) {
            return "interrupted: " + e.getMessage() + ", interrupted() " + Thread.interrupted();
        }
    }
}
