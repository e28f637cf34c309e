package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.FlowStats;
import flowtest.support.ScriptedTransport;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Results, failures and transports of flows run in continuation mode. */
class FlowOutcomeTest {

    private static ContinuationClassLoader loader;
    private static FlowScheduler scheduler;

    @BeforeAll
    static void setUp() {
        loader = ContinuationClassLoader.builder().include("flowtest.fixtures").strict(true).build();
        scheduler = FlowScheduler.builder().workers(2).name("outcome").build();
    }

    @AfterAll
    static void tearDown() {
        scheduler.close();
    }

    @AfterEach
    void countsReturnToZero() {
        TestSupport.awaitIdle(scheduler);
    }

    @Test
    void failingFlowReportsItsExceptionThroughItsHandle() {
        long failedBefore = scheduler.stats().failed();
        FlowHandle<Object> h = scheduler.submit(loader.newInstance(Callable.class, "flowtest.fixtures.Thrower"));
        ExecutionException e = assertThrows(ExecutionException.class, () -> h.get(Duration.ofSeconds(10)));
        assertInstanceOf(IllegalStateException.class, e.getCause());
        assertEquals("boom 42", e.getCause().getMessage());
        assertTrue(h.isFailed());
        assertEquals(failedBefore + 1, scheduler.stats().failed());
    }

    /**
     * An error thrown where the scheduler ends a flow, after its task returned (here a deferred sender that
     * runs out of memory; in a hostile-peer test, a class of Flow's that could not load when the descriptors
     * had run out), ends that flow with the error: before, the worker survived it but the flow was never
     * ended (its handle never completed, it stayed active, and its server's graceful stop waited for it).
     */
    @Test
    void anErrorWhereTheSchedulerEndsAFlowFailsThatFlowAndItsWorkerGoesOn() throws Exception {
        Runnable sender = () -> {
            throw new OutOfMemoryError("injected in a deferred sender");
        };
        FlowHandle<Object> h = scheduler.submit(loader.newInstance(Callable.class, "flowtest.fixtures.DeferredSender", sender));
        ExecutionException e = assertThrows(ExecutionException.class, () -> h.get(Duration.ofSeconds(10)));
        assertInstanceOf(OutOfMemoryError.class, e.getCause());
        assertEquals("injected in a deferred sender", e.getCause().getMessage());
        TestSupport.awaitIdle(scheduler);
        FlowStats s = scheduler.stats();
        assertEquals(2, s.workersAlive(), s.toString());
        Object next = scheduler.submit(loader.newInstance(Callable.class, "flowtest.fixtures.DeferredSender",
                (Runnable) () -> { })).get(Duration.ofSeconds(10));
        assertEquals("done 1", next);
    }

    @Test
    void transportReadsSuspendAndIoExceptionReachesUserCode() throws Exception {
        ScriptedTransport t = new ScriptedTransport(List.of("a", "b", "c"), new IOException("connection reset"));
        long resumedBefore = scheduler.stats().resumed();
        Object r = scheduler.submit(loader.newInstance(Callable.class, "flowtest.fixtures.TransportUser", t))
                .get(Duration.ofSeconds(10));
        assertEquals("io error after 3: connection reset", r);
        assertEquals(List.of("A", "B", "C"), t.written());
        assertTrue(scheduler.stats().resumed() >= resumedBefore + 3);
    }

    @Test
    void transportReadReturnsNullAtEndOfStream() throws Exception {
        ScriptedTransport t = new ScriptedTransport(List.of("x", "y"), null);
        Object r = scheduler.submit(loader.newInstance(Callable.class, "flowtest.fixtures.TransportUser", t))
                .get(Duration.ofSeconds(10));
        assertEquals("eof after 2", r);
    }

    @Test
    void tenThousandFlowsOnTwoWorkersCompleteWithFuturesCompletedInRandomOrder() throws Exception {
        int n = 10_000;
        List<CompletableFuture<Integer>> futures = new ArrayList<>();
        List<FlowHandle<Object>> handles = new ArrayList<>();
        FlowStats before = scheduler.stats();
        for (int i = 0; i < n; i++) {
            CompletableFuture<Integer> a = new CompletableFuture<>();
            CompletableFuture<Integer> b = new CompletableFuture<>();
            futures.add(a);
            futures.add(b);
            handles.add(scheduler.submit(loader.newInstance(Callable.class, "flowtest.fixtures.Waiter", a, b)));
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < 2 * n; i++) {
            order.add(i);
        }
        Collections.shuffle(order, new Random(42));
        // Every flow waits on its first future before any future completes, so each really suspends
        // (on a loaded machine the completer could otherwise outrun the workers).
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (scheduler.stats().suspended() < n) {
            assertTrue(System.nanoTime() < deadline, () -> "flows not all suspended after 30 s: " + scheduler.stats());
            Thread.sleep(1);
        }
        Thread completer = new Thread(() -> {
            for (int idx : order) {
                futures.get(idx).complete(idx / 2 + (idx % 2 == 0 ? 0 : 7));
            }
        }, "completer");
        completer.start();
        for (int i = 0; i < n; i++) {
            assertEquals(i * 1000 + i + 7, handles.get(i).get(Duration.ofSeconds(30)));
        }
        completer.join(10_000);
        FlowStats after = scheduler.stats();
        assertEquals(before.completed() + n, after.completed());
        assertTrue(after.resumed() - before.resumed() >= n, "every flow must have suspended: " + after);
    }
}
