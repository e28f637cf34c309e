package dev.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Issue 8.2: a submit racing close() is either run or rejected, never lost. */
class SchedulerCloseRaceTest {

    @Test
    @Timeout(120)
    void everySubmitAcceptedWhileClosingCompletes() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        int rounds = 0;
        long accepted = 0;
        while (rounds < 300 && System.nanoTime() - deadline < 0) {
            rounds++;
            FlowScheduler s = FlowScheduler.builder().workers(2).name("race-" + rounds).build();
            List<FlowHandle<Void>> handles = new ArrayList<>();
            AtomicReference<RejectedExecutionException> rejected = new AtomicReference<>();
            CountDownLatch going = new CountDownLatch(1);
            Thread submitter = new Thread(() -> {
                going.countDown();
                try {
                    for (int i = 0; i < 1_000_000; i++) {
                        handles.add(s.start(() -> { }));
                    }
                } catch (RejectedExecutionException e) {
                    rejected.set(e);
                }
            });
            submitter.start();
            going.await();
            for (int spin = (rounds * 7919) % 2000; spin > 0; spin--) {
                Thread.onSpinWait();
            }
            s.close();
            submitter.join(30_000);
            long start = System.nanoTime();
            for (FlowHandle<Void> h : handles) {
                while (!h.isDone()) {
                    if (System.nanoTime() - start > 20_000_000_000L) {
                        fail("round " + rounds + ": an accepted flow never completed; " + s.stats());
                    }
                    Thread.yield();
                }
            }
            accepted += handles.size();
            assertTrue(rejected.get() != null, "submit after close is rejected");
            assertTrue(rejected.get().getMessage().contains("race-" + rounds), rejected.get().getMessage());
            assertTrue(s.awaitTermination(Duration.ofSeconds(10)));
            FlowStats st = s.stats();
            assertEquals(handles.size(), st.started(), st.toString());
            assertEquals(0, st.active() + st.running() + st.suspended() + st.queued(), st.toString());
        }
        assertTrue(accepted > 0, "accepted: " + accepted);
    }
}
