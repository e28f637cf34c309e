package flowtest.conformance.primitives;

import java.util.concurrent.Callable;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TransferQueue;

/** {@code TransferQueue.tryTransfer(timeout)} with no consumer: no suspendable form, so it is reported. */
public final class TryTransferTimesOut implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        TransferQueue<String> queue = new LinkedTransferQueue<>();
        return queue.tryTransfer("x", 2, TimeUnit.MILLISECONDS) + ", left " + queue.size();
    }
}
