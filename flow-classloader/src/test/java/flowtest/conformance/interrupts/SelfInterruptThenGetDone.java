package flowtest.conformance.interrupts;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/** Interrupts itself, then gets a completed future: the value, and the flag stays set. */
public class SelfInterruptThenGetDone implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        CompletableFuture<String> done = CompletableFuture.completedFuture("v");
        Thread.currentThread().interrupt();
        return done.get() + ", interrupted() " + Thread.interrupted();
    }
}
