package flowtest.conformance.interrupts;

import java.util.concurrent.Callable;

/** Interrupts itself, then sleeps 0 ms: still an InterruptedException. */
public class SelfInterruptThenSleepZero implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Thread.currentThread().interrupt();
        Thread.sleep(0);
        return "slept";
    }
}
