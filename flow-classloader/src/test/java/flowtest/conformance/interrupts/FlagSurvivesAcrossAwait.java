package flowtest.conformance.interrupts;

import flowtest.support.Async;
import java.util.concurrent.Callable;

/** Interrupts itself, awaits a few values, then sleeps: the flag survives the awaits and stops the sleep. */
public class FlagSurvivesAcrossAwait implements Callable<Object> {
    @Override
    public Object call() {
        Thread.currentThread().interrupt();
        int sum = 0;
        for (int i = 0; i < 3; i++) {
            sum += Async.later(i).join();
        }
        try {
            Thread.sleep(10_000);
            return "slept " + sum;
        } catch (InterruptedException e) {
            return "interrupted after " + sum + ", flag " + Thread.currentThread().isInterrupted();
        }
    }
}
