package flowtest.conformance.primitives;

import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;

/** {@code LockSupport.parkNanos} parks the thread: no suspendable form, so it is reported. */
public final class LockSupportParkNanos implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        LockSupport.parkNanos(1_000_000L);
        return "parked";
    }
}
