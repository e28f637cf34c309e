package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.flow.FlowScheduler;
import dev.flow.FlowStats;
import dev.flow.internal.Pins;
import java.time.Duration;
import java.util.concurrent.Callable;

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

    /** Waits up to 10 s for {@code n} flows of the scheduler to be running (on a worker, not suspended). */
    static void awaitRunning(FlowScheduler scheduler, int n) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (scheduler.stats().running() != n) {
            if (System.nanoTime() > deadline) {
                fail(n + " flow(s) not running within 10 s: " + scheduler.stats());
            }
            Thread.onSpinWait();
        }
    }

    /**
     * Runs fixture {@code className} three times as a flow of {@code scheduler}: each run must return
     * {@code expected}, and exactly one warning naming the class must be logged in all.
     */
    static void runsWithOneWarning(FlowScheduler scheduler, ContinuationClassLoader loader, String className,
                                   String expected) throws Exception {
        int before = warningsAbout(className);
        for (int i = 0; i < 3; i++) {
            Object r = scheduler.submit(loader.newInstance(Callable.class, className)).get(Duration.ofSeconds(10));
            assertEquals(expected, String.valueOf(r));
        }
        assertEquals(1, warningsAbout(className) - before, "one warning per site: " + Pins.warnings());
    }

    /** How many pin warnings so far name a member of {@code className}. */
    static int warningsAbout(String className) {
        int n = 0;
        for (String s : Pins.warnings()) {
            if (s.contains(className + ".")) {
                n++;
            }
        }
        return n;
    }
}
