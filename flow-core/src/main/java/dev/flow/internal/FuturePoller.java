package dev.flow.internal;

import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Watches plain {@link Future}s, which offer no completion callback, by polling them every
 * millisecond. Used only for futures that are neither {@code CompletableFuture} nor adapted.
 *
 * <p>A poll stops when its future is done or when the wake-up it would run was claimed by someone
 * else (the wait timed out, the flow was cancelled, its scheduler closed). The one daemon thread,
 * {@code flow-future-poller}, exists only while something is polled: it ends a second after the last
 * poll. Thread-safe.
 */
final class FuturePoller {

    private static final ScheduledThreadPoolExecutor TIMER = DaemonTimers.create("flow-future-poller");

    private FuturePoller() {
    }

    static void poll(Future<?> f, Runnable action) {
        if (action instanceof Ticket && !((Ticket) action).live()) {
            return;
        }
        if (f.isDone()) {
            action.run();
            return;
        }
        TIMER.schedule(() -> poll(f, action), 1, TimeUnit.MILLISECONDS);
    }
}
