package dev.flow.libraries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.FlowStats;
import dev.flow.SuspendPolicy;
import dev.flow.internal.Pins;
import dev.flow.loader.ContinuationClassLoader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Runs a library client as many concurrent flows on two workers and gathers what a mode comparison checks:
 * each flow's result or failure, the scheduler's counters, and the pin warnings logged meanwhile that name a
 * class of interest. Not thread-safe: one run at a time (pin warnings are global).
 */
final class FlowRuns {

    /** One client as a flow of a given loader. */
    interface Client {
        Callable<?> create(ContinuationClassLoader loader, String id) throws Exception;
    }

    /** What {@code sessions} flows did: results (or failures) in session order, counters, new pin warnings. */
    static final class Outcome {
        final List<Object> results = new ArrayList<>();
        final List<Throwable> failures = new ArrayList<>();
        FlowStats stats;
        List<String> pinned;

        @Override
        public String toString() {
            return stats + ", " + pinned.size() + " pinned sites " + pinned + ", failures " + failures;
        }
    }

    private FlowRuns() {
    }

    /**
     * Starts {@code sessions} flows of {@code client} (ids {@code c0, c1, ...}) through {@code loader} on a new
     * two-worker scheduler, waits up to 60 s for each, closes the scheduler and returns what happened; pin
     * warnings are kept if {@code ours} accepts them.
     */
    static Outcome run(String name, ContinuationClassLoader loader, int sessions, Client client, Predicate<String> ours)
            throws Exception {
        return run(name, loader, sessions, client, ours, scheduler -> { });
    }

    /** As {@link #run(String, ContinuationClassLoader, int, Client, Predicate)}, first handing the new scheduler to
     * {@code started} (before any flow is submitted). */
    static Outcome run(String name, ContinuationClassLoader loader, int sessions, Client client, Predicate<String> ours,
            Consumer<FlowScheduler> started) throws Exception {
        Outcome out = new Outcome();
        int warningsBefore = Pins.warnings().size();
        try (FlowScheduler scheduler = FlowScheduler.builder().workers(2).policy(SuspendPolicy.immediately())
                .name(name).build()) {
            started.accept(scheduler);
            List<FlowHandle<?>> handles = new ArrayList<>();
            for (int i = 0; i < sessions; i++) {
                handles.add(scheduler.submit(client.create(loader, "c" + i)));
            }
            for (FlowHandle<?> h : handles) {
                try {
                    out.results.add(h.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS));
                } catch (ExecutionException e) {
                    out.failures.add(e.getCause());
                }
            }
            out.stats = scheduler.stats();
        }
        List<String> warnings = Pins.warnings();
        out.pinned = warnings.subList(warningsBefore, warnings.size()).stream().filter(ours).toList();
        System.out.printf("%s: %d sessions, %s%n", name, sessions, out);
        return out;
    }

    /**
     * Runs {@code sessions} flows of {@code client}, loaded with {@code packages} leniently and then strictly, and
     * asserts for each run: no failure, every result {@code expected}, at least {@code resumedPerSession}
     * resumptions per session, and no pin warning that {@code ours} accepts.
     */
    static void assertLikeSyncWithoutPins(String name, String[] packages, int sessions, Client client,
            Predicate<String> ours, Object expected, long resumedPerSession) throws Exception {
        for (boolean strict : new boolean[] {false, true}) {
            Outcome out = run(name + "-" + (strict ? "strict" : "lenient"),
                    ContinuationClassLoader.builder().include(packages).strict(strict).build(), sessions, client, ours);
            assertEquals(List.of(), out.failures);
            assertEquals(Collections.nCopies(sessions, expected), out.results);
            assertTrue(out.stats.resumed() >= sessions * resumedPerSession, "the flows suspended: " + out.stats);
            assertEquals(List.of(), out.pinned, "pinned sites");
        }
    }
}
