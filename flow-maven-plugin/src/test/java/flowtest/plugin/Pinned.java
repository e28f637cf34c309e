package flowtest.plugin;

import flowtest.support.Async;
import java.util.List;
import java.util.concurrent.Callable;

/** Three pin sites (synchronized, List.forEach callback, reflective call), each awaiting a future completed once awaited. */
public class Pinned implements Callable<Object> {
    private final Object lock = new Object();

    @Override
    public Object call() throws Exception {
        int v;
        synchronized (lock) {
            v = Async.whenAwaited(2).join();
        }
        int[] sum = {v};
        List.of(1, 2).forEach(x -> sum[0] += Async.whenAwaited(x).join());
        return sum[0] + (Integer) Pinned.class.getMethod("target").invoke(this);
    }

    /** Awaits, called reflectively. */
    public int target() throws Exception {
        return Async.whenAwaited(3).get();
    }
}
