package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

class SmokeTest {
    @Test
    void sleepLoopSuspends() throws Exception {
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.fixtures").strict(true).build();
        try (FlowScheduler s = FlowScheduler.builder().workers(2).build()) {
            FlowHandle<Object> h = s.submit(loader.newInstance(Callable.class, "flowtest.fixtures.SleepLoop"));
            assertEquals(10L, h.get(java.time.Duration.ofSeconds(10)));
            System.out.println(s.stats());
        }
    }
}
