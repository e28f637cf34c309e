package dev.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The scheduler with tasks that were not instrumented: they run, blocking their worker when they wait. */
class FlowSchedulerTest {

    @Test
    void plainTaskRunsOnAWorkerAndReturnsItsResult() throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().workers(2).name("t").build()) {
            AtomicReference<Thread> ran = new AtomicReference<>();
            FlowHandle<String> h = s.submit(() -> {
                ran.set(Thread.currentThread());
                assertTrue(Flow.inFlow());
                return "ok";
            });
            assertEquals("ok", h.get(Duration.ofSeconds(5)));
            assertTrue(s.isWorker(ran.get()));
            awaitIdle(s);
            assertEquals(1, s.stats().completed());
        }
    }

    @Test
    void failingTaskIsReportedThroughItsHandle() {
        try (FlowScheduler s = FlowScheduler.builder().build()) {
            FlowHandle<Object> h = s.submit(() -> {
                throw new IOException("nope");
            });
            ExecutionException e = assertThrows(ExecutionException.class, () -> h.get(Duration.ofSeconds(5)));
            assertInstanceOf(IOException.class, e.getCause());
            assertTrue(h.isFailed());
            awaitIdle(s);
            assertEquals(1, s.stats().failed());
        }
    }

    @Test
    void awaitInAnUninstrumentedTaskBlocksItsWorker() throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().build()) {
            CompletableFuture<Integer> f = new CompletableFuture<>();
            FlowHandle<Integer> h = s.submit(() -> Flow.await(f) + 1);
            f.complete(41);
            assertEquals(42, h.get(Duration.ofSeconds(5)));
            awaitIdle(s);
            assertEquals(0, s.stats().resumed());
        }
    }

    @Test
    void awaitOutsideAFlowBlocksAndRethrowsFailures() {
        assertFalse(Flow.inFlow());
        assertEquals(3, Flow.await(CompletableFuture.supplyAsync(() -> 3)));
        CompletableFuture<Object> failed = CompletableFuture.failedFuture(new IllegalStateException("x"));
        assertThrows(CompletionException.class, () -> Flow.await(failed));
    }

    @Test
    @org.junit.jupiter.api.Timeout(30)
    void currentIsTheSchedulerRunningTheCallingFlow() throws Exception {
        assertEquals(null, FlowScheduler.current());
        try (FlowScheduler s = FlowScheduler.builder().workers(2).name("cur").build()) {
            FlowHandle<Object> sibling = s.submit(() -> FlowScheduler.current().submit(() -> "sibling").join());
            assertEquals("sibling", sibling.get(Duration.ofSeconds(5)));
            assertTrue(s.submit(() -> FlowScheduler.current() == s).get(Duration.ofSeconds(5)));
        }
    }

    @Test
    void submitAfterCloseIsRejected() {
        FlowScheduler s = FlowScheduler.builder().build();
        s.close();
        RejectedExecutionException e = assertThrows(RejectedExecutionException.class, () -> s.start(() -> { }));
        assertEquals("flow scheduler 'flow' is closed", e.getMessage());
    }

    @Test
    void closeStopsTheWorkers() throws Exception {
        FlowScheduler s = FlowScheduler.builder().workers(3).build();
        s.start(() -> { }).get(Duration.ofSeconds(5));
        s.close();
        assertTrue(s.awaitTermination(Duration.ofSeconds(5)));
    }

    @Test
    void flowLocalOutsideAFlowBehavesLikeAThreadLocal() throws Exception {
        FlowLocal<String> local = FlowLocal.withInitial(() -> "init");
        assertEquals("init", local.get());
        local.set("main");
        Thread t = new Thread(() -> assertEquals("init", local.get()));
        t.start();
        t.join(5000);
        assertEquals("main", local.get());
        local.remove();
        assertEquals("init", local.get());
    }

    static void awaitIdle(FlowScheduler s) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!s.stats().isIdle()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not idle: " + s.stats());
            }
            Thread.yield();
        }
    }
}
