package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/** Suspend policies and flow-local values in continuation mode. */
class PolicyAndLocalsTest {

    private static final ContinuationClassLoader LOADER =
            ContinuationClassLoader.builder().include("flowtest.fixtures").strict(true).build();

    private static Object runLoops(FlowScheduler s) throws Exception {
        Object r = s.submit(LOADER.newInstance(Callable.class, "flowtest.fixtures.Loops")).get(Duration.ofSeconds(20));
        TestSupport.awaitIdle(s);
        return r;
    }

    @Test
    void neverPolicyBlocksInsteadOfSuspending() throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().policy(SuspendPolicy.never()).build()) {
            assertEquals(1190L, runLoops(s));
            assertEquals(0, s.stats().resumed());
        }
    }

    @Test
    void immediatePolicySuspendsOnEveryIncompleteAwait() throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().policy(SuspendPolicy.immediately()).build()) {
            assertEquals(1190L, runLoops(s));
            assertTrue(s.stats().resumed() > 0);
        }
    }

    @Test
    void afterPolicyWaitsFirstAndSuspendsOnlyWhenStillIncomplete() throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().policy(SuspendPolicy.after(Duration.ofSeconds(5))).build()) {
            assertEquals(1190L, runLoops(s));
            assertEquals(0, s.stats().resumed(), "every await completes within the 5 s wait");
        }
        try (FlowScheduler s = FlowScheduler.builder().policy(SuspendPolicy.after(Duration.ofNanos(1))).build()) {
            assertEquals(1190L, runLoops(s));
            assertTrue(s.stats().resumed() > 0, "a 1 ns wait is too short, so the flow suspends");
        }
    }

    @Test
    @org.junit.jupiter.api.Timeout(30)
    void afterPolicyDoesNotWaitWhileOtherFlowsAreReady() throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().policy(SuspendPolicy.after(Duration.ofMinutes(10))).build()) {
            java.util.concurrent.CompletableFuture<Integer> a = new java.util.concurrent.CompletableFuture<>();
            java.util.concurrent.CompletableFuture<Integer> b = new java.util.concurrent.CompletableFuture<>();
            java.util.concurrent.CountDownLatch hold = new java.util.concurrent.CountDownLatch(1);
            s.submit(() -> {
                hold.await();
                return null;
            });
            FlowHandle<Object> waiter = s.submit(LOADER.newInstance(Callable.class, "flowtest.fixtures.Waiter", a, b));
            FlowHandle<Object> completer = s.submit(() -> {
                a.complete(4);
                b.complete(2);
                return null;
            });
            hold.countDown();
            assertEquals(4002, waiter.get(Duration.ofSeconds(20)), "the waiter must give way to the queued completer");
            completer.get(Duration.ofSeconds(20));
            TestSupport.awaitIdle(s);
            assertTrue(s.stats().resumed() >= 1);
        }
    }

    @Test
    void adaptivePolicyGivesTheSameResults() throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().policy(SuspendPolicy.adaptive()).build()) {
            assertEquals(1190L, runLoops(s));
        }
    }

    @Test
    void flowLocalValuesFollowTheirFlowAcrossSuspensions() throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().workers(2).build()) {
            List<FlowHandle<Object>> hs = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                hs.add(s.submit(LOADER.newInstance(Callable.class, "flowtest.fixtures.Localized", "flow-" + i)));
            }
            for (FlowHandle<Object> h : hs) {
                assertEquals("..........", h.get(Duration.ofSeconds(20)));
            }
            TestSupport.awaitIdle(s);
            assertTrue(s.stats().resumed() >= 50);
        }
    }
}
