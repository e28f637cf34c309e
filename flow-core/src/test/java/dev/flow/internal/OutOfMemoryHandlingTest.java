package dev.flow.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.FlowStats;
import dev.flow.SuspendPolicy;
import dev.flow.spi.Awaitable;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** #14: an {@link OutOfMemoryError} on a scheduler's threads is counted and never costs the thread. */
@Timeout(30)
class OutOfMemoryHandlingTest {

    @Test
    void aFlowThatRunsOutOfMemoryFailsAloneIsCountedAndItsWorkerGoesOn() throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().workers(1).name("oom").build()) {
            FlowHandle<Object> h = s.submit(() -> {
                throw new OutOfMemoryError("injected");
            });
            ExecutionException e = assertThrows(ExecutionException.class, () -> h.get(Duration.ofSeconds(10)));
            assertInstanceOf(OutOfMemoryError.class, e.getCause());
            assertEquals("alive", s.submit(() -> "alive").get(Duration.ofSeconds(10)));
            FlowStats stats = s.stats();
            assertEquals(1, stats.outOfMemoryErrors(), stats.toString());
            assertEquals(1, stats.failed(), stats.toString());
            assertEquals(1, stats.workersAlive(), stats.toString());
            assertEquals(0, stats.workerErrors(), stats.toString());
        }
    }

    @Test
    void aSleepWakeUpThatRunsOutOfMemoryDoesNotStopTheSleepsOfOthers() throws Exception {
        SchedulerCore core = new SchedulerCore("oom-sleeps", 1, SuspendPolicy.immediately(), true, false, null);
        try {
            Awaitable first = core.sleep(TimeUnit.MILLISECONDS.toNanos(200));
            Awaitable second = core.sleep(TimeUnit.MILLISECONDS.toNanos(400));
            CountDownLatch woken = new CountDownLatch(1);
            first.whenDone(() -> {
                throw new OutOfMemoryError("injected");
            });
            second.whenDone(woken::countDown);
            assertTrue(woken.await(10, TimeUnit.SECONDS), "the sleep after the failed one never ended");
            long[] c = core.counters();
            assertEquals(1, c[10], "out-of-memory errors");
            assertEquals(1, c[9], "errors survived outside a flow");
        } finally {
            core.close(0);
        }
    }
}
