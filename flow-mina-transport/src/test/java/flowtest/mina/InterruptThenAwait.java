package flowtest.mina;

import java.util.concurrent.Callable;
import org.apache.mina.core.future.IoFuture;

/** Interrupts itself, then awaits a MINA future that is not done: {@code await()} or {@code await(millis)}. */
public class InterruptThenAwait implements Callable<String> {
    private final IoFuture future;
    private final long millis;

    public InterruptThenAwait(IoFuture future, Long millis) {
        this.future = future;
        this.millis = millis;
    }

    @Override
    public String call() {
        Thread.currentThread().interrupt();
        try {
            if (millis < 0) {
                future.await();
                return "done";
            }
            return "await " + future.await(millis);
        } catch (InterruptedException e) {
            return "interrupted: " + e.getMessage() + ", flag " + Thread.currentThread().isInterrupted();
        }
    }
}
