package dev.flow.internal;

import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Watches plain {@link Future}s, which offer no completion callback, by polling them every
 * millisecond on one daemon thread. Used only for futures that are neither {@code
 * CompletableFuture} nor adapted.
 */
final class FuturePoller {

    private static final ScheduledExecutorService TIMER = newTimer();

    private FuturePoller() {
    }

    private static ScheduledExecutorService newTimer() {
        ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, r -> {
            Thread th = new Thread(r, "flow-future-poller");
            th.setDaemon(true);
            return th;
        });
        t.setRemoveOnCancelPolicy(true);
        return t;
    }

    static void poll(Future<?> f, Runnable action) {
        if (f.isDone()) {
            action.run();
            return;
        }
        TIMER.schedule(() -> poll(f, action), 1, TimeUnit.MILLISECONDS);
    }
}
