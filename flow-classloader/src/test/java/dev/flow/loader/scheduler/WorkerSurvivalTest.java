package dev.flow.loader.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.spi.Awaitable;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Issue 8.1: a failure outside the flow's own code never kills a worker; the flow gets it. */
class WorkerSurvivalTest {

    /** An awaitable whose registration fails. */
    private static final class Broken implements Awaitable {
        @Override
        public boolean isDone() {
            return false;
        }

        @Override
        public void whenDone(Runnable action) {
            throw new IllegalStateException("broken awaitable");
        }
    }

    @Test
    @Timeout(60)
    void aWakeUpThatCannotBeRegisteredFailsTheFlowAtItsSuspensionPointAndTheWorkerLivesOn() throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().workers(1).name("survive").build()) {
            for (int i = 0; i < 3; i++) {
                FlowHandle<Object> h = s.submit(Schedulers.fixture("AwaitBroken", new Broken()));
                ExecutionException e = assertThrows(ExecutionException.class, () -> h.get(Duration.ofSeconds(10)));
                assertInstanceOf(IllegalStateException.class, e.getCause());
                assertEquals("broken awaitable", e.getCause().getMessage());
            }
            assertEquals("alive", s.submit(() -> "alive").get(Duration.ofSeconds(10)));
            Schedulers.awaitIdle(s);
            assertEquals(1, s.stats().workersAlive());
            assertEquals(0, s.stats().workerErrors());
        }
    }
}
