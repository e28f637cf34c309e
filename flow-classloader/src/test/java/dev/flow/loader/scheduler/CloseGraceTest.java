package dev.flow.loader.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** close(grace): flows that finish within the grace period end normally; the rest are failed. */
class CloseGraceTest {

    @Test
    @Timeout(60)
    void flowsEndingWithinTheGraceEndNormallyAndTheOthersAreFailed() throws Exception {
        FlowScheduler s = FlowScheduler.builder().workers(2).name("grace").build();
        CompletableFuture<Object> soon = new CompletableFuture<>();
        CompletableFuture<Object> never = new CompletableFuture<>();
        AtomicInteger started = new AtomicInteger();
        AtomicInteger finallies = new AtomicInteger();
        FlowHandle<Object> finishing = s.submit(Schedulers.fixture("FinallyCounting", "future", soon, started, finallies));
        FlowHandle<Object> stuck = s.submit(Schedulers.fixture("FinallyCounting", "future", never, started, finallies));
        Schedulers.await(Duration.ofSeconds(10), () -> s.stats().suspended() == 2, () -> s.stats().toString());
        // The grace must outlast completing 'soon' and resuming its flow on a loaded machine (500 ms left
        // little room); the stuck flow is failed when it expires.
        Thread closer = new Thread(() -> s.close(Duration.ofSeconds(5)), "closer");
        closer.start();
        Schedulers.await(Duration.ofSeconds(10), () -> rejects(s), () -> "close() has not started");
        soon.complete("in time");
        closer.join(30_000);
        assertEquals("in time", finishing.get(Duration.ZERO));
        assertThrows(CancellationException.class, stuck::join);
        assertEquals(2, finallies.get());
        Schedulers.assertCountsZero(s.stats());
        assertEquals(0, s.stats().workersAlive());
    }

    private static boolean rejects(FlowScheduler s) {
        try {
            s.start(() -> { });
            return false;
        } catch (RejectedExecutionException e) {
            return true;
        }
    }
}
