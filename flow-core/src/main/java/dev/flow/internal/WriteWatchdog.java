package dev.flow.internal;

import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Bounds blocking writes that cannot time out by themselves (a {@code java.net.Socket}'s): {@link
 * #watch} arms a timer that closes the target if the write is still running when it expires, which
 * makes the blocked write fail. One daemon thread, started at the first watch and ended after a second
 * without any.
 *
 * <p>Thread-safe: watches are armed and cancelled by the writing threads, and expire on the timer's.
 */
public final class WriteWatchdog {

    private static final ScheduledThreadPoolExecutor TIMER = DaemonTimers.create("flow-write-watchdog");

    private WriteWatchdog() {
    }

    /** Arms a watch that closes {@code target} in {@code timeoutNanos} unless {@linkplain Watch#cancel() cancelled}. */
    public static Watch watch(Closeable target, long timeoutNanos) {
        Watch w = new Watch(target);
        w.future = TIMER.schedule(w, timeoutNanos, TimeUnit.NANOSECONDS);
        return w;
    }

    /** One armed watch: cancel it when the write returns, then ask whether it {@linkplain #expired() expired}. */
    public static final class Watch implements Runnable {
        private final Closeable target;
        private volatile boolean expired;
        private volatile ScheduledFuture<?> future;

        private Watch(Closeable target) {
            this.target = target;
        }

        /** Expires: closes the target (its blocked write then fails). */
        @Override
        public void run() {
            expired = true;
            try {
                target.close();
            } catch (IOException e) {
                // Closing is all the watch does; a failed close leaves the write to its own fate.
            }
        }

        /** Disarms the watch (the write returned); a watch that expired already stays expired. */
        public void cancel() {
            ScheduledFuture<?> f = future;
            if (f != null) {
                f.cancel(false);
            }
        }

        /** Whether the watch expired and closed the target. */
        public boolean expired() {
            return expired;
        }
    }
}
