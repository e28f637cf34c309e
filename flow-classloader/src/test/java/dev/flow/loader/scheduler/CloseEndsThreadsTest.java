package dev.flow.loader.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code close()} returns only once every thread of the scheduler has ended: the workers (each leaves the
 * scheduler's set of live workers just before its thread ends), the sleep wheel and the timer (whose
 * executor reports its termination just before its last thread ends).
 */
class CloseEndsThreadsTest {

    @Test
    @Timeout(120)
    void closeReturnsOnlyAfterTheTimerThreadHasEnded() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        for (int r = 0; r < 200 && System.nanoTime() - deadline < 0; r++) {
            int round = r;
            String name = "ends" + round + "x";
            FlowScheduler s = FlowScheduler.builder().workers(1).name(name).build();
            CompletableFuture<Object> later = new CompletableFuture<>();
            FlowHandle<Object> h = s.submit(Schedulers.fixture("FinallyCounting", "timed", later,
                    new AtomicInteger(), new AtomicInteger()));
            Schedulers.await(Duration.ofSeconds(10), () -> s.stats().suspended() == 1, () -> "suspended: " + s.stats());
            later.complete("done");
            h.get(Duration.ofSeconds(10));
            s.close();
            String prefix = name + "-";
            assertEquals(0, Schedulers.liveThreads(prefix), () -> "round " + round + ": threads of the scheduler left: "
                    + Schedulers.liveThreadNames(prefix));
        }
    }
}
