package flowtest.conformance.interrupts;

import java.util.concurrent.Callable;

/** Interrupts itself, then sleeps: InterruptedException, flag cleared. */
public class SelfInterruptThenSleep implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Thread.currentThread().interrupt();
        try {
            Thread.sleep(10_000);
            return "slept";
        } catch (InterruptedException e) {
            return "interrupted: " + e.getMessage() + ", flag " + Thread.currentThread().isInterrupted();
        }
    }
}
