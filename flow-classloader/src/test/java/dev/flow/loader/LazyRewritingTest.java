package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * What a loader does per class happens when the class is first used: building it rewrites nothing, and
 * a class never loaded is never rewritten. The inference still sees the whole scope: a cycle of calls
 * across classes is suspendable where it reaches an await, and only there.
 */
class LazyRewritingTest {

    private static final String PKG = "flowtest.lazy.";
    private static final List<String> CLASSES = List.of("CycleA", "CycleB", "CycleC", "CycleRun", "LoopX", "LoopY", "Unused");
    private static final String CYCLE_DESC = "(Ljava/util/concurrent/CompletableFuture;I)I";

    @Test
    void buildingALoaderRewritesNoClassAndAClassNeverLoadedIsNeverRewritten() throws Exception {
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.lazy").build();
        for (String c : CLASSES) {
            assertFalse(loader.isRewritten(PKG + c), () -> c + " rewritten by build()");
        }
        loader.loadClass(PKG + "LoopX");
        assertTrue(loader.isRewritten(PKG + "LoopX"), "LoopX rewritten when loaded");
        assertFalse(loader.isRewritten(PKG + "LoopY"), "LoopY rewritten before it is loaded");
        Class.forName(PKG + "CycleRun", true, loader);
        assertTrue(loader.isRewritten(PKG + "CycleRun"), "CycleRun rewritten when loaded");
        assertFalse(loader.isRewritten(PKG + "Unused"), "Unused rewritten though never loaded");
    }

    @Test
    void aCycleOfCallsAcrossClassesIsSuspendableWhereItReachesAnAwait() throws Exception {
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.lazy").build();
        assertTrue(loader.isSuspendable("flowtest/lazy/CycleA", "a", CYCLE_DESC), "CycleA.a");
        assertTrue(loader.isSuspendable("flowtest/lazy/CycleB", "b", CYCLE_DESC), "CycleB.b");
        assertTrue(loader.isSuspendable("flowtest/lazy/CycleC", "c", CYCLE_DESC), "CycleC.c");
        assertFalse(loader.isSuspendable("flowtest/lazy/LoopX", "x", "(I)I"), "LoopX.x reaches no await");
        assertFalse(loader.isSuspendable("flowtest/lazy/LoopY", "y", "(I)I"), "LoopY.y reaches no await");

        CompletableFuture<Integer> future = new CompletableFuture<>();
        try (FlowScheduler s = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("lazy").build()) {
            FlowHandle<?> h = s.submit(loader.newInstance(Callable.class, PKG + "CycleRun", future));
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (s.stats().suspended() != 1) {
                if (System.nanoTime() > deadline) {
                    fail("the flow did not suspend in the cycle within 10 s: " + s.stats());
                }
                Thread.onSpinWait();
                Thread.yield();
            }
            future.complete(39);
            assertEquals(42, h.get(Duration.ofSeconds(10)));
            TestSupport.awaitIdle(s);
            assertTrue(s.stats().resumed() > 0, () -> "the flow resumed: " + s.stats());
        }
    }
}
