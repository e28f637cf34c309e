package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.internal.Pins;
import flowtest.refused.Huge;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A method the continuation engine cannot transform ({@code flowtest.refused.Huge.run} grows past
 * 64 KB when instrumented) does not make its class unloadable in lenient mode: it runs as compiled,
 * each of its suspension points a pinned site reported once when the class is loaded, naming the
 * class, the method, the line and why. Strict mode refuses it at load time (see {@code ClassLoaderTest}).
 */
class UninstrumentableMethodTest {

    private static final String SITE = "cannot suspend at flowtest.refused.Huge.run(Ljava/util/concurrent/CompletableFuture;)J"
            + " (line ";
    private static final String WHY = "): the continuation engine cannot instrument this method (method too large after"
            + " instrumentation (";

    @Test
    void lenientLoaderLeavesAMethodThatGrowsPast64KbAsCompiledAndPinsEachOfItsSuspensionPoints() throws Exception {
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.refused").build();
        int before = aboutHuge().size();
        Class<?> huge = loader.loadClass("flowtest.refused.Huge");
        assertSame(loader, huge.getClassLoader());
        List<String> reported = aboutHuge().subList(before, aboutHuge().size());
        assertEquals(300, reported.size(), () -> "one warning per suspension point (300 joins): " + reported);
        assertTrue(reported.get(0).startsWith(SITE + "32" + WHY), reported.get(0));
        assertTrue(reported.get(299).startsWith(SITE + "331" + WHY), reported.get(299));

        long expected = new Huge().run(CompletableFuture.completedFuture(7L));
        CompletableFuture<Long> f = new CompletableFuture<>();
        try (FlowScheduler s = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("huge").build()) {
            FlowHandle<Object> h = s.submit(loader.newInstance(Callable.class, "flowtest.refused.RunsHuge", f));
            TestSupport.awaitRunning(s, 1);
            f.complete(7L);
            assertEquals(expected, h.get(Duration.ofSeconds(10)));
            assertEquals(0, s.stats().resumed(), "pinned: the flow blocked its worker rather than suspend");
            TestSupport.awaitIdle(s);
        }
        assertEquals(before + 300, aboutHuge().size(), "no further warning when the pinned sites block");
    }

    private static List<String> aboutHuge() {
        return Pins.warnings().stream().filter(w -> w.startsWith(SITE)).collect(Collectors.toList());
    }
}
