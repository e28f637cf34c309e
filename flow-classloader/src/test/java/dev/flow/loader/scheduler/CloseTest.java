package dev.flow.loader.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Issue 8.2: closing the scheduler fails every remaining flow at its suspension point and loses none. */
class CloseTest {

    @Test
    @Timeout(120)
    void closeWithAThousandQueuedTimedWaitsCompletesEveryHandleAndStopsTheWorkers() throws Exception {
        String name = "close1000";
        FlowScheduler s = FlowScheduler.builder().workers(2).name(name).build();
        CompletableFuture<Object> never = new CompletableFuture<>();
        AtomicInteger started = new AtomicInteger();
        AtomicInteger finallies = new AtomicInteger();
        List<FlowHandle<Object>> hs = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            hs.add(s.submit(Schedulers.fixture("FinallyCounting", "timed", never, started, finallies)));
        }
        s.close();
        Schedulers.awaitAllDone(hs, Duration.ofSeconds(60));
        assertTrue(s.awaitTermination(Duration.ofSeconds(10)));
        assertEquals(started.get(), finallies.get(), "every started flow ran its finally block");
        for (FlowHandle<Object> h : hs) {
            assertTrue(h.isFailed(), h.toString());
        }
        Schedulers.assertCountsZero(s.stats());
        assertEquals(0, Schedulers.liveThreads(name + "-"), "threads of the scheduler left");
    }

    @Test
    @Timeout(180)
    void closeFailsTwelveThousandSuspendedFlowsAtTheirSuspensionPoints() throws Exception {
        String name = "close12k";
        FlowScheduler s = FlowScheduler.builder().workers(2).name(name).build();
        CompletableFuture<Object> never = new CompletableFuture<>();
        AtomicInteger started = new AtomicInteger();
        AtomicInteger finallies = new AtomicInteger();
        List<FlowHandle<Object>> hs = new ArrayList<>();
        String[] kinds = {"sleep", "timed", "future"};
        for (int i = 0; i < 12_000; i++) {
            hs.add(s.submit(Schedulers.fixture("FinallyCounting", kinds[i % 3], never, started, finallies)));
        }
        Schedulers.await(Duration.ofSeconds(60), () -> s.stats().suspended() == 12_000, () -> "suspended: " + s.stats());
        s.close();
        Schedulers.awaitAllDone(hs, Duration.ofSeconds(60));
        assertEquals(12_000, finallies.get(), "finally blocks run");
        for (FlowHandle<Object> h : hs) {
            CancellationException e = assertThrows(CancellationException.class, h::join);
            // JDK 23+ wraps the flow's exception in a new CancellationException("join").
            Throwable flowFailure = e.getCause() instanceof CancellationException ? e.getCause() : e;
            assertTrue(flowFailure.getMessage().contains(name), flowFailure.getMessage());
        }
        assertTrue(s.awaitTermination(Duration.ofSeconds(10)));
        Schedulers.assertCountsZero(s.stats());
        assertEquals(12_000, s.stats().failed());
        assertEquals(0, s.stats().resumed(), "flows failed by close are not counted as resumed");
        assertEquals(0, Schedulers.liveThreads(name + "-"), "threads of the scheduler left");
    }
}
