package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.fail;

import dev.flow.FlowScheduler;
import dev.flow.FlowStats;

/** Waiting on conditions with deadlines. */
final class TestSupport {
    private TestSupport() {
    }

    /** Waits up to 10 s for the scheduler to have no active, running, suspended or queued flow. */
    static void awaitIdle(FlowScheduler scheduler) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        FlowStats s = scheduler.stats();
        while (!s.isIdle()) {
            if (System.nanoTime() > deadline) {
                fail("scheduler not idle after 10 s: " + s);
            }
            Thread.onSpinWait();
            Thread.yield();
            s = scheduler.stats();
        }
    }
}
