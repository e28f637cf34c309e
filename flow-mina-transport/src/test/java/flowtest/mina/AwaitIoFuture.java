package flowtest.mina;

import java.util.concurrent.Callable;
import org.apache.mina.core.future.IoFuture;

/** Waits on a MINA future the blocking way: {@code awaitUninterruptibly()} or {@code await(millis)}. */
public class AwaitIoFuture implements Callable<Boolean> {
    private final IoFuture future;
    private final long millis;

    public AwaitIoFuture(IoFuture future, Long millis) {
        this.future = future;
        this.millis = millis;
    }

    @Override
    public Boolean call() throws InterruptedException {
        if (millis < 0) {
            future.awaitUninterruptibly();
            return future.isDone();
        }
        return future.await(millis);
    }
}
