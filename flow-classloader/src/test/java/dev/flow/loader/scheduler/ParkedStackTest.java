package dev.flow.loader.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Stacks of parked flows are packed once many flows are suspended (above the scheduler's trim
 * threshold of 1024): every local must come back unchanged on every resumption.
 */
class ParkedStackTest {

    private static final int FLOWS = 3000;

    @Test
    @Timeout(120)
    void flowsParkedBeyondTheTrimThresholdResumeWithEveryLocalIntact() throws Exception {
        FlowScheduler s = FlowScheduler.builder().workers(2).name("packed").build();
        try {
            List<CompletableFuture<Integer>> firsts = new ArrayList<>();
            List<CompletableFuture<Integer>> seconds = new ArrayList<>();
            List<FlowHandle<Object>> hs = new ArrayList<>();
            for (int i = 0; i < FLOWS; i++) {
                firsts.add(new CompletableFuture<>());
                seconds.add(new CompletableFuture<>());
                hs.add(s.submit(Schedulers.fixture("PrimitiveFrames", seed(i), firsts.get(i), seconds.get(i))));
            }
            Schedulers.await(Duration.ofSeconds(60), () -> s.stats().suspended() == FLOWS, () -> "suspended: " + s.stats());
            for (int i = 0; i < FLOWS; i++) {
                firsts.get(i).complete(i);
            }
            Schedulers.await(Duration.ofSeconds(60), () -> s.stats().resumed() == FLOWS && s.stats().suspended() == FLOWS,
                    () -> "suspended again: " + s.stats());
            for (int i = 0; i < FLOWS; i++) {
                seconds.get(i).complete(-i);
            }
            Schedulers.awaitAllDone(hs, Duration.ofSeconds(60));
            for (int i = 0; i < FLOWS; i++) {
                Callable<?> plain = new flowtest.scheduler.PrimitiveFrames(seed(i),
                        CompletableFuture.completedFuture(i), CompletableFuture.completedFuture(-i));
                assertEquals(plain.call(), hs.get(i).join(), "flow " + i);
            }
            Schedulers.awaitIdle(s);
            Schedulers.assertCountsZero(s.stats());
        } finally {
            s.close();
        }
        assertEquals(0, Schedulers.liveThreads("packed-"), "threads of the scheduler left");
    }

    private static Integer seed(int i) {
        return i % 2 == 0 ? i * 100_003 : -i * 7919;
    }
}
