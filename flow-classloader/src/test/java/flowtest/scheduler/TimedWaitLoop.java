package flowtest.scheduler;

import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Times out on {@code future.get(1, NANOSECONDS)} {@code times} times, or until {@code untilNanos} passes. */
public class TimedWaitLoop implements Callable<Object> {
    private final Future<?> future;
    private final int times;
    private final long untilNanos;

    public TimedWaitLoop(Future<?> future, Integer times, Long untilNanos) {
        this.future = future;
        this.times = times;
        this.untilNanos = untilNanos;
    }

    @Override
    public Object call() throws Exception {
        int timeouts = 0;
        for (int i = 0; i < times && System.nanoTime() - untilNanos < 0; i++) {
            try {
                future.get(1, TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                timeouts++;
            }
        }
        return timeouts;
    }
}
