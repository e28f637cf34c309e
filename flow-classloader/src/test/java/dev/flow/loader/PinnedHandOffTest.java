package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Flows of a lenient loader pinned in a constructor hand their worker to another thread while they block,
 * so flows that wait for each other there finish on one worker (they deadlocked it before).
 */
@Timeout(60)
class PinnedHandOffTest {

    private static final String FIXTURE = "flowtest.fixtures.ConstructorRendezvous";

    @Test
    void flowsPinnedInConstructorsUntilAllArriveFinishOnOneWorker() throws Exception {
        ContinuationClassLoader lenient = ContinuationClassLoader.builder().include("flowtest.fixtures").build();
        int parties = (int) lenient.loadClass(FIXTURE).getField("PARTIES").get(null);
        try (FlowScheduler s = FlowScheduler.builder().workers(1).name("ctor-handoff").build()) {
            List<FlowHandle<Object>> handles = new ArrayList<>();
            for (int i = 0; i < parties; i++) {
                handles.add(s.submit(lenient.newInstance(Callable.class, FIXTURE)));
            }
            try {
                for (FlowHandle<Object> h : handles) {
                    assertEquals(parties, h.get(Duration.ofSeconds(10)));
                }
            } finally {
                lenient.loadClass(FIXTURE).getMethod("release").invoke(null);
            }
            TestSupport.awaitIdle(s);
            assertEquals(parties - 1, s.stats().pinnedHandOffs(), s.stats().toString());
            assertEquals(1, s.stats().workersAlive());
        }
    }

    @Test
    void withNoPinnedThreadsTheLastFlowWaitsForTheWorker() throws Exception {
        ContinuationClassLoader lenient = ContinuationClassLoader.builder().include("flowtest.fixtures").build();
        int parties = (int) lenient.loadClass(FIXTURE).getField("PARTIES").get(null);
        try (FlowScheduler s = FlowScheduler.builder().workers(1).maxPinnedThreads(0).name("ctor-held").build()) {
            List<FlowHandle<Object>> handles = new ArrayList<>();
            for (int i = 0; i < parties; i++) {
                handles.add(s.submit(lenient.newInstance(Callable.class, FIXTURE)));
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (s.stats().running() != 1 || s.stats().queued() != parties - 1) {
                assertTrue(System.nanoTime() < deadline, s.stats().toString());
                Thread.yield();
            }
            // The first holds the only worker; releasing it lets each of the others find the future done.
            lenient.loadClass(FIXTURE).getMethod("release").invoke(null);
            for (FlowHandle<Object> h : handles) {
                assertEquals(-1, h.get(Duration.ofSeconds(10)));
            }
            TestSupport.awaitIdle(s);
            assertEquals(0, s.stats().pinnedHandOffs());
        }
    }
}
