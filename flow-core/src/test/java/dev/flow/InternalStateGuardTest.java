package dev.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.flow.internal.FlowState;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Issue 8.10: user code reaching dev.flow.internal cannot complete its own flow or skew the counters. */
class InternalStateGuardTest {

    @Test
    void userCodeCannotCompleteItsFlowThroughItsInternalState() throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().name("guard").build()) {
            FlowHandle<String> h = s.submit(() -> {
                FlowState state = FlowState.current();
                for (Method m : FlowState.class.getMethods()) {
                    boolean completes = m.getName().equals("succeed") || m.getName().equals("fail");
                    if (completes && !Modifier.isStatic(m.getModifiers()) && m.getParameterCount() == 1) {
                        m.invoke(state, m.getParameterTypes()[0] == Throwable.class
                                ? new IllegalStateException("forged") : "forged");
                    }
                }
                return "real";
            });
            assertEquals("real", h.get(Duration.ofSeconds(10)));
            FlowSchedulerTest.awaitIdle(s);
            assertEquals(1, s.stats().completed(), s.stats().toString());
            assertEquals(0, s.stats().failed(), s.stats().toString());
        }
    }
}
