package flowtest.conformance.primitives;

import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;

/** {@code CyclicBarrier.await()}: no suspendable form, so it is reported as a blocking call. */
public final class CyclicBarrierOfOne implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        CyclicBarrier barrier = new CyclicBarrier(1);
        return "arrival index " + barrier.await();
    }
}
