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
        awaitCount(scheduler, n, FlowStats::running, "running");
    }

    /** Waits up to 10 s for {@code n} flows of the scheduler to be suspended. */
    static void awaitSuspended(FlowScheduler scheduler, int n) {
        awaitCount(scheduler, n, FlowStats::suspended, "suspended");
    }

    private static void awaitCount(FlowScheduler scheduler, int n, java.util.function.ToLongFunction<FlowStats> count,
                                   String what) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (count.applyAsLong(scheduler.stats()) != n) {
            if (System.nanoTime() > deadline) {
                fail(n + " flow(s) not " + what + " within 10 s: " + scheduler.stats());
            }
            Thread.onSpinWait();
        }
    }

    /**
     * Runs fixture {@code className} three times as a flow of {@code scheduler}: each run must return
     * {@code expected}, and exactly one warning naming the class (or a class nested in it) must be logged in all.
     */
    static void runsWithOneWarning(FlowScheduler scheduler, ContinuationClassLoader loader, String className,
                                   String expected) throws Exception {
        assertEquals(1, newWarnings(scheduler, loader, className, expected, 3), () -> "one warning per site: " + Pins.warnings());
    }

    /**
     * Runs fixture {@code className} {@code runs} times as a flow of {@code scheduler}, each run returning
     * {@code expected}; returns how many pin warnings naming the class (or a class nested in it) the runs added.
     */
    static int newWarnings(FlowScheduler scheduler, ContinuationClassLoader loader, String className, String expected,
                           int runs) throws Exception {
        int before = warningsAbout(className);
        for (int i = 0; i < runs; i++) {
            Object r = scheduler.submit(loader.newInstance(Callable.class, className)).get(Duration.ofSeconds(10));
            assertEquals(expected, String.valueOf(r));
        }
        return warningsAbout(className) - before;
    }

    /** How many pin warnings so far name a member of {@code className} or of a class nested in it. */
    static int warningsAbout(String className) {
        int n = 0;
        for (String s : Pins.warnings()) {
            if (s.contains(className + ".") || s.contains(className + "$")) {
                n++;
            }
        }
        return n;
    }
}
