package flowtest.conformance.interrupts;

import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;

/** Interrupts itself, then gets a plain Future (a FutureTask nobody runs): InterruptedException. */
public class SelfInterruptThenFutureTaskGet implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        FutureTask<String> never = new FutureTask<>(() -> "ran");
        Thread.currentThread().interrupt();
        try {
            return never.get();
        } catch (InterruptedException e) {
            return "interrupted, flag " + Thread.currentThread().isInterrupted();
        }
    }
}
