package dev.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Issue 8.10: flow-local slots of collected flow-locals are reused, without showing old values. */
class FlowLocalIndexTest {

    @Test
    @Timeout(60)
    void indicesOfCollectedFlowLocalsAreReused() {
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 20_000; i++) {
            seen.add(FlowLocal.create().index());
            if (i % 1000 == 999) {
                System.gc();
            }
        }
        assertTrue(seen.size() < 20_000, "distinct indices for 20,000 dropped flow-locals: " + seen.size());
    }

    @Test
    @Timeout(60)
    void aReusedIndexNeverShowsTheValueOfTheFlowLocalThatHadIt() throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().name("locals").build()) {
            FlowHandle<String> h = s.submit(() -> {
                for (int i = 0; i < 20_000; i++) {
                    FlowLocal<String> old = FlowLocal.create();
                    old.set("old-" + i);
                    FlowLocal<String> fresh = FlowLocal.create();
                    if (fresh.get() != null) {
                        return "flow-local " + fresh.index() + " showed " + fresh.get();
                    }
                    old.remove();
                    if (i % 1000 == 999) {
                        System.gc();
                    }
                }
                return "ok";
            });
            assertEquals("ok", h.get(Duration.ofSeconds(50)));
        }
        FlowLocal<String> outside = FlowLocal.create();
        assertNull(outside.get());
    }
}
