package dev.flow.loader.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.FutureTask;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Issue 8.1 and 8.3: timed waits that expire at once never kill a worker, and leave nothing registered. */
class TimedWaitRaceTest {

    @Test
    @Timeout(120)
    void workersSurviveFlowsLoopingOnNanosecondTimedWaits() throws Exception {
        String name = "race81";
        FlowScheduler s = FlowScheduler.builder().workers(8).name(name).build();
        try {
            CompletableFuture<Object> never = new CompletableFuture<>();
            long until = System.nanoTime() + Duration.ofSeconds(3).toNanos();
            List<FlowHandle<Object>> hs = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                hs.add(s.submit(Schedulers.fixture("TimedWaitLoop", never, 1_000_000, until)));
            }
            Schedulers.awaitAllDone(hs, Duration.ofSeconds(60));
            long total = 0;
            for (FlowHandle<Object> h : hs) {
                total += (Integer) h.join();
            }
            assertTrue(total > 64, "timeouts: " + total);
            assertEquals(8, Schedulers.liveThreads(name + "-worker-"), "live workers");
            Schedulers.awaitIdle(s);
            assertTrue(s.stats().resumed() > 0);
        } finally {
            s.close();
        }
    }

    @Test
    @Timeout(60)
    void timedOutWaitsLeaveNoWakeUpRegisteredOnTheFuture() throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().workers(2).name("leak83").build()) {
            CompletableFuture<Object> never = new CompletableFuture<>();
            List<FlowHandle<Object>> hs = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                hs.add(s.submit(Schedulers.fixture("TimedWaitLoop", never, 100, Long.MAX_VALUE / 2 + System.nanoTime())));
            }
            Schedulers.awaitAllDone(hs, Duration.ofSeconds(30));
            for (FlowHandle<Object> h : hs) {
                assertEquals(100, h.join());
            }
            Schedulers.awaitIdle(s);
            assertTrue(never.getNumberOfDependents() <= 1,
                    "dependents left on the future after 1,000 timeouts: " + never.getNumberOfDependents());
        }
    }

    @Test
    @Timeout(60)
    void plainFuturesAreNoLongerPolledOnceTheirWaitsTimedOutAndTheSchedulerClosed() throws Exception {
        FlowScheduler s = FlowScheduler.builder().workers(1).name("poll83").build();
        FutureTask<Object> never = new FutureTask<>(() -> "never run");
        FlowHandle<Object> h = s.submit(Schedulers.fixture("TimedWaitLoop", never, 20, Long.MAX_VALUE / 2 + System.nanoTime()));
        assertEquals(20, h.get(Duration.ofSeconds(30)));
        Schedulers.awaitIdle(s);
        s.close();
        assertTrue(s.awaitTermination(Duration.ofSeconds(10)));
        Schedulers.await(Duration.ofSeconds(10), () -> Schedulers.liveThreads("flow-future-poller") == 0
                        && Schedulers.liveThreads("poll83") == 0,
                () -> "poller threads alive: " + Schedulers.liveThreads("flow-future-poller")
                        + ", scheduler threads alive: " + Schedulers.liveThreads("poll83"));
    }
}
