package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The inference reaches a fixed point across classes: a cycle of calls through three classes is
 * suspendable where it reaches an await, and a cycle that reaches none is not.
 */
class CrossClassCycleTest {

    private static final String PKG = "flowtest.cycle.";
    private static final String CYCLE_DESC = "(Ljava/util/concurrent/CompletableFuture;I)I";

    @Test
    void aCycleOfCallsAcrossClassesIsSuspendableWhereItReachesAnAwait() throws Exception {
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.cycle").build();
        assertTrue(loader.isSuspendable("flowtest/cycle/CycleA", "a", CYCLE_DESC), "CycleA.a");
        assertTrue(loader.isSuspendable("flowtest/cycle/CycleB", "b", CYCLE_DESC), "CycleB.b");
        assertTrue(loader.isSuspendable("flowtest/cycle/CycleC", "c", CYCLE_DESC), "CycleC.c");
        assertFalse(loader.isSuspendable("flowtest/cycle/LoopX", "x", "(I)I"), "LoopX.x reaches no await");
        assertFalse(loader.isSuspendable("flowtest/cycle/LoopY", "y", "(I)I"), "LoopY.y reaches no await");

        CompletableFuture<Integer> future = new CompletableFuture<>();
        try (FlowScheduler s = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("cycle").build()) {
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
