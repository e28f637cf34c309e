package flowtest.conformance.primitives;

import java.lang.ref.ReferenceQueue;
import java.util.concurrent.Callable;

/** {@code ReferenceQueue.remove(timeout)} on an empty queue: no suspendable form, so it is reported. */
public final class ReferenceQueueRemoveTimesOut implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        return "removed " + new ReferenceQueue<Object>().remove(2);
    }
}
