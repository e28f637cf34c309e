package flowtest.mina;

import java.util.concurrent.Callable;
import org.apache.mina.core.future.IoFuture;

/**
 * Interrupts itself, then waits with {@code awaitUninterruptibly(millis)} while holding a monitor (so a
 * flow pins): the wait ignores the interrupt. (MINA clears the flag on the way; Flow keeps it, so the
 * flag is not part of the result.)
 */
public class PinnedUninterruptibleAwait implements Callable<String> {
    private final IoFuture future;

    public PinnedUninterruptibleAwait(IoFuture future) {
        this.future = future;
    }

    @Override
    public String call() {
        synchronized (this) {
            Thread.currentThread().interrupt();
            boolean done = future.awaitUninterruptibly(10_000);
            Thread.interrupted();
            return "done " + done;
        }
    }
}
