package flowtest.conformance.interrupts;

import flowtest.support.Async;
import java.util.concurrent.Callable;

/** Interrupts itself, then joins a future completed later: join ignores the flag, which stays set. */
public class SelfInterruptThenJoin implements Callable<Object> {
    @Override
    public Object call() {
        Thread.currentThread().interrupt();
        String v = Async.later("joined").join();
        return v + ", interrupted() " + Thread.interrupted() + ", then " + Thread.currentThread().isInterrupted();
    }
}
