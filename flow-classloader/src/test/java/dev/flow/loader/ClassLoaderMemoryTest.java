package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.internal.Pins;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A process that keeps creating and dropping loaders (hot reload, tests) must be able to drop them
 * completely: the loader, its analysis of the scope (which the continuation engine also reads), and
 * the pin sites its code registered.
 */
class ClassLoaderMemoryTest {

    private static final int LOADERS = 12;
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final String FIXTURE = "flowtest.fixtures.Lambdas";

    @Test
    void droppedLoadersAreCollectedWithTheirAnalysisAndReleaseTheirPinSites() throws Exception {
        int sitesBefore = Pins.liveSites();
        List<WeakReference<Object>> refs = new ArrayList<>();
        int sitesOfOneLoader = -1;
        try (FlowScheduler scheduler = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately())
                .name("loader-memory").build()) {
            for (int i = 0; i < LOADERS; i++) {
                int before = Pins.liveSites();
                useAndDrop(scheduler, refs);
                if (sitesOfOneLoader < 0) {
                    sitesOfOneLoader = Pins.liveSites() - before;
                }
            }
            TestSupport.awaitIdle(scheduler);
        }
        assertTrue(sitesOfOneLoader > 0, "the fixture registers pin sites: " + sitesOfOneLoader);

        long deadline = System.nanoTime() + DEADLINE.toNanos();
        int alive = countAlive(refs);
        int sites = Pins.liveSites();
        while ((alive > 0 || sites > sitesBefore) && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(20);
            alive = countAlive(refs);
            sites = Pins.liveSites();
        }
        assertEquals(0, alive, "loaders or their analyses still reachable after " + DEADLINE + " of GC (of " + refs.size() + ")");
        // Loaders that earlier tests dropped may be collected meanwhile too: fewer sites than before is fine.
        int left = sites;
        assertTrue(left <= sitesBefore, "pin sites left by " + LOADERS + " dropped loaders (" + sitesOfOneLoader
                + " each): " + left + " (expected: <= " + sitesBefore + ", as before them)");
    }

    /** Loads and runs the fixture on a plain thread and as a flow; keeps only weak references. */
    private static void useAndDrop(FlowScheduler scheduler, List<WeakReference<Object>> refs) throws Exception {
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.fixtures").build();
        Object expected = "13,6,9,5";
        AtomicReference<Object> plain = new AtomicReference<>();
        Callable<?> onThread = loader.newInstance(Callable.class, FIXTURE);
        Thread t = new Thread(() -> {
            try {
                plain.set(onThread.call());
            } catch (Exception e) {
                plain.set(e);
            }
        }, "loader-memory-plain");
        t.start();
        t.join(DEADLINE.toMillis());
        assertEquals(expected, plain.get());
        assertEquals(expected, scheduler.submit(loader.newInstance(Callable.class, FIXTURE)).get(DEADLINE));
        refs.add(new WeakReference<>(loader));
        refs.add(new WeakReference<>(loader.analysis()));
    }

    private static int countAlive(List<WeakReference<Object>> refs) {
        int n = 0;
        for (WeakReference<Object> r : refs) {
            if (r.get() != null) {
                n++;
            }
        }
        return n;
    }
}
