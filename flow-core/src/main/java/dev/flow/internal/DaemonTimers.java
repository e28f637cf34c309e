package dev.flow.internal;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** Timers on one daemon thread that exists only while tasks are scheduled. Stateless; thread-safe. */
final class DaemonTimers {

    private DaemonTimers() {
    }

    /**
     * A timer whose one daemon thread, named {@code threadName}, starts with the first task and ends a
     * second after the last; cancelled tasks are removed at once.
     */
    static ScheduledThreadPoolExecutor create(String threadName) {
        ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(0, r -> {
            Thread th = new Thread(r, threadName);
            th.setDaemon(true);
            return th;
        });
        t.setKeepAliveTime(1, TimeUnit.SECONDS);
        t.setRemoveOnCancelPolicy(true);
        return t;
    }
}
