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
 * threshold of 1024): every local must come back unchanged on every resumption; also when flows of very different
 * depths share the stack arrays their workers lend them.
 */
class ParkedStackTest {

    private static final int FLOWS = 3000;

    @Test
    @Timeout(120)
    void flowsParkedBeyondTheTrimThresholdResumeWithEveryLocalIntact() throws Exception {
        assertResumeIntact(FLOWS, (i, first, second) -> Schedulers.fixture("PrimitiveFrames", seed(i), first, second),
                (i, first, second) -> new flowtest.scheduler.PrimitiveFrames(seed(i), first, second));
    }

    @Test
    @Timeout(120)
    void shallowAndDeepFlowsSharingWorkersResumeWithEveryLocalIntact() throws Exception {
        // Depth 40 needs more stack slots than a worker keeps spare: its arrays are grown, then left behind.
        assertDeepFramesResumeIntact(FLOWS, new int[] {0, 40, 2, 40, 1});
    }

    @Test
    @Timeout(120)
    void unpackedFlowsResumeWithEveryLocalIntact() throws Exception {
        // Below the trim threshold: each flow keeps the arrays it was lent while it is parked.
        assertDeepFramesResumeIntact(200, new int[] {0, 40, 3});
    }

    private static void assertDeepFramesResumeIntact(int flows, int[] depths) throws Exception {
        assertResumeIntact(flows,
                (i, first, second) -> Schedulers.fixture("DeepFrames", depths[i % depths.length], seed(i), first, second),
                (i, first, second) -> new flowtest.scheduler.DeepFrames(depths[i % depths.length], seed(i), first, second));
    }

    /** Makes the task of flow {@code i}, which waits for {@code first} then {@code second}. */
    private interface Fixture {
        Callable<Object> task(int i, CompletableFuture<Integer> first, CompletableFuture<Integer> second);
    }

    /**
     * Runs {@code flows} flows of {@code inFlow} on two workers, all parked at their first wait, then all at
     * their second, and checks that each returns what {@code plain}'s task returns called on this thread.
     */
    private static void assertResumeIntact(int flows, Fixture inFlow, Fixture plain) throws Exception {
        FlowScheduler s = FlowScheduler.builder().workers(2).name("packed").build();
        try {
            List<CompletableFuture<Integer>> firsts = new ArrayList<>();
            List<CompletableFuture<Integer>> seconds = new ArrayList<>();
            List<FlowHandle<Object>> hs = new ArrayList<>();
            for (int i = 0; i < flows; i++) {
                firsts.add(new CompletableFuture<>());
                seconds.add(new CompletableFuture<>());
                hs.add(s.submit(inFlow.task(i, firsts.get(i), seconds.get(i))));
            }
            Schedulers.await(Duration.ofSeconds(60), () -> s.stats().suspended() == flows, () -> "suspended: " + s.stats());
            for (int i = 0; i < flows; i++) {
                firsts.get(i).complete(i);
            }
            Schedulers.await(Duration.ofSeconds(60), () -> s.stats().resumed() == flows && s.stats().suspended() == flows,
                    () -> "suspended again: " + s.stats());
            for (int i = 0; i < flows; i++) {
                seconds.get(i).complete(-i);
            }
            Schedulers.awaitAllDone(hs, Duration.ofSeconds(60));
            for (int i = 0; i < flows; i++) {
                Callable<Object> task = plain.task(i, CompletableFuture.completedFuture(i), CompletableFuture.completedFuture(-i));
                assertEquals(task.call(), hs.get(i).join(), "flow " + i);
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
