package flowtest.conformance.primitives;

import flowtest.support.Spawn;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TransferQueue;

/** {@code TransferQueue.transfer} to a plain thread waiting in {@code take}: no suspendable form, so it is reported. */
public final class TransferToWaitingThread implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        TransferQueue<String> queue = new LinkedTransferQueue<>();
        java.util.concurrent.Future<String> taken = Spawn.onThread(queue::take);
        queue.transfer("x");
        return "transferred, taken " + taken.get(5, TimeUnit.SECONDS);
    }
}
