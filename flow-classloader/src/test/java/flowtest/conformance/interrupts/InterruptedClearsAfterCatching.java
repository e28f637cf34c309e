package flowtest.conformance.interrupts;

import flowtest.support.Async;
import java.util.concurrent.Callable;

/** After catching an InterruptedException, a later await suspends normally and the flag stays clear. */
public class InterruptedClearsAfterCatching implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Thread.currentThread().interrupt();
        String first;
        try {
            Thread.sleep(10_000);
            first = "slept";
        } catch (InterruptedException e) {
            first = "caught";
        }
        Thread.sleep(1);
        return first + ", then " + Async.later("later").get() + ", interrupted() " + Thread.interrupted();
    }
}
