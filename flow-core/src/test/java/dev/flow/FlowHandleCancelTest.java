package dev.flow;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Cancelling flows whose tasks were not instrumented: queued ones never run, running ones are interrupted. */
class FlowHandleCancelTest {

    @Test
    @Timeout(30)
    void cancelledQueuedFlowNeverRuns() throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().name("cq").build()) {
            CountDownLatch release = new CountDownLatch(1);
            FlowHandle<Boolean> blocker = s.submit(() -> release.await(20, TimeUnit.SECONDS));
            AtomicBoolean ran = new AtomicBoolean();
            FlowHandle<Void> queued = s.start(() -> ran.set(true));
            assertTrue(queued.cancel());
            release.countDown();
            assertTrue(blocker.get(Duration.ofSeconds(10)));
            assertThrows(CancellationException.class, queued::join);
            assertTrue(queued.isCancelled());
            assertFalse(ran.get(), "a flow cancelled before it started must not run");
            FlowSchedulerTest.awaitIdle(s);
        }
    }

    @Test
    @Timeout(30)
    void cancelInterruptsARunningUninstrumentedTaskAndTheNextFlowStartsUninterrupted() throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().name("cr").build()) {
            CountDownLatch started = new CountDownLatch(1);
            AtomicReference<Throwable> caught = new AtomicReference<>();
            FlowHandle<Object> h = s.submit(() -> {
                started.countDown();
                try {
                    new CountDownLatch(1).await(20, TimeUnit.SECONDS);
                    return "not interrupted";
                } catch (InterruptedException e) {
                    caught.set(e);
                    Thread.currentThread().interrupt();
                    throw e;
                }
            });
            started.await();
            assertTrue(h.cancel());
            assertThrows(CancellationException.class, h::join);
            assertInstanceOf(InterruptedException.class, caught.get());
            assertFalse(s.submit(() -> Thread.currentThread().isInterrupted()).get(Duration.ofSeconds(10)),
                    "the interrupt must not leak into the next flow on the worker");
            FlowSchedulerTest.awaitIdle(s);
        }
    }
}
