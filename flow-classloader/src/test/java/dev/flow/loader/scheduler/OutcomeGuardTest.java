package dev.flow.loader.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The flow root hands the outcome to the flow's state through public methods: user code cannot forge it with them. */
class OutcomeGuardTest {

    @Test
    @Timeout(30)
    void aFlowCallingTheRootsOutcomeMethodsStillEndsWithWhatItReturned() throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().workers(1).name("forge").build()) {
            CompletableFuture<String> later = new CompletableFuture<>();
            FlowHandle<Object> h = s.submit(Schedulers.fixture("ForgesOutcome", later));
            Schedulers.await(Duration.ofSeconds(10), () -> s.stats().suspended() == 1, () -> "suspended: " + s.stats());
            later.complete("real");
            assertEquals("real,refused,refused", h.get(Duration.ofSeconds(10)));
            Schedulers.awaitIdle(s);
            assertEquals(1, s.stats().completed(), s.stats().toString());
            assertEquals(0, s.stats().failed(), s.stats().toString());
            Schedulers.assertCountsZero(s.stats());
        }
        assertEquals(0, Schedulers.liveThreads("forge-"), "threads of the scheduler left");
    }
}
