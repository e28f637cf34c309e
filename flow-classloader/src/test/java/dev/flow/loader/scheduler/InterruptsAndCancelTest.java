package dev.flow.loader.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Issue 7.7: the interrupt status belongs to the flow; a handle can cancel its flow. */
class InterruptsAndCancelTest {

    @Test
    @Timeout(60)
    void interruptFlagFollowsItsFlowAndDoesNotLeakIntoTheNextFlowOnTheSameWorker() throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().workers(1).name("noleak").build()) {
            CompletableFuture<String> a = new CompletableFuture<>();
            CompletableFuture<String> b = new CompletableFuture<>();
            FlowHandle<Object> interrupter = s.submit(Schedulers.fixture("InterruptThenJoin", a));
            Schedulers.await(Duration.ofSeconds(10), () -> s.stats().suspended() == 1, () -> "suspended: " + s.stats());
            FlowHandle<Object> next = s.submit(Schedulers.fixture("ReportInterrupted", b));
            Schedulers.await(Duration.ofSeconds(10), () -> s.stats().suspended() == 2, () -> "suspended: " + s.stats());
            a.complete("a");
            b.complete("b");
            assertEquals("a:true", interrupter.get(Duration.ofSeconds(10)), "the flag survived the suspension");
            assertEquals(false, next.get(Duration.ofSeconds(10)), "the next flow on the worker starts uninterrupted");
            Schedulers.awaitIdle(s);
        }
    }

    @Test
    @Timeout(60)
    void cancelledSleepingFlowGetsInterruptedExceptionAndItsHandleCompletesCancelled() throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().workers(2).name("cancel").build()) {
            for (String how : new String[] {"sleep", "get"}) {
                AtomicReference<Object> caught = new AtomicReference<>();
                FlowHandle<Object> h = s.submit(Schedulers.fixture("CancelReporter", how, new CompletableFuture<>(), caught));
                Schedulers.await(Duration.ofSeconds(10), () -> s.stats().suspended() == 1, () -> "suspended: " + s.stats());
                assertTrue(h.cancel(), "cancel of a running flow");
                Schedulers.await(Duration.ofSeconds(10), h::isDone, () -> how + ": handle not done after cancel");
                assertInstanceOf(InterruptedException.class, caught.get(), how);
                assertTrue(h.isCancelled(), how);
                assertThrows(CancellationException.class, h::join);
                assertFalse(h.cancel(), "a second cancel does nothing");
                Schedulers.awaitIdle(s);
            }
        }
    }

    @Test
    @Timeout(60)
    void cancelledFlowInAnUninterruptibleJoinGetsCancellationException() throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().workers(1).name("cancelj").build()) {
            AtomicReference<Object> caught = new AtomicReference<>();
            FlowHandle<Object> h = s.submit(Schedulers.fixture("CancelReporter", "join", new CompletableFuture<>(), caught));
            Schedulers.await(Duration.ofSeconds(10), () -> s.stats().suspended() == 1, () -> "suspended: " + s.stats());
            assertTrue(h.cancel());
            Schedulers.await(Duration.ofSeconds(10), h::isDone, () -> "handle not done after cancel");
            assertInstanceOf(CancellationException.class, caught.get());
            assertTrue(h.isCancelled());
            Schedulers.awaitIdle(s);
        }
    }
}
