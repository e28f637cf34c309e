package flowtest.conformance.pins;

import flowtest.support.Async;
import java.io.IOException;
import java.util.concurrent.Callable;

/** An await inside {@code synchronized} fails; the flow awaits again after the block. */
public final class MonitorAwaitFails implements Callable<Object> {
    private final Object lock = new Object();

    @Override
    public Object call() throws Exception {
        String first;
        try {
            synchronized (lock) {
                first = Async.<String>failLater(new IOException("lost")).join();
            }
        } catch (RuntimeException e) {
            first = "failed";
        }
        return first + ", then " + Async.later(9).get() + " and " + Async.later(-9).get();
    }
}
