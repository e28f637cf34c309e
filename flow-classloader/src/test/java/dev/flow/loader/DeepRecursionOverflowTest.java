package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/**
 * Finding 5 of issue 15: after a {@code StackOverflowError} inside a flow (also while the engine
 * restores a deep stack), later deep calls return right values. Runs the fixture many times, bounded
 * in count and time, on 1 and 2 workers, strict and lenient.
 */
class DeepRecursionOverflowTest {

    private static final String FIXTURE = "flowtest.conformance.overflow.DeepRecursionAfterOverflow";
    private static final String RIGHT = "every run returned its depth or overflowed";
    private static final int ROUNDS = 12;
    private static final Duration BUDGET = Duration.ofSeconds(12);

    @Test
    void deepCallsAfterAStackOverflowReturnTheirDepthOrOverflowAgain() throws Exception {
        long deadline = System.nanoTime() + BUDGET.toNanos();
        List<String> outcomes = new ArrayList<>();
        int runs = 0;
        for (boolean strict : new boolean[] {true, false}) {
            ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.conformance.overflow")
                    .strict(strict).build();
            for (int workers = 1; workers <= 2; workers++) {
                try (FlowScheduler s = FlowScheduler.builder().workers(workers).policy(SuspendPolicy.immediately())
                        .name("overflow-" + workers).build()) {
                    for (int round = 0; round < ROUNDS && System.nanoTime() < deadline; round++) {
                        List<FlowHandle<?>> flows = new ArrayList<>();
                        for (int k = 0; k < workers; k++) {
                            flows.add(s.submit(loader.newInstance(Callable.class, FIXTURE)));
                        }
                        for (FlowHandle<?> h : flows) {
                            outcomes.add(outcome(h));
                            runs++;
                        }
                    }
                    TestSupport.awaitIdle(s);
                }
            }
        }
        assertTrue(runs >= 4, "runs within " + BUDGET + ": " + runs);
        List<String> wrong = new ArrayList<>();
        for (String o : outcomes) {
            if (!o.equals(RIGHT)) {
                wrong.add(o);
            }
        }
        assertEquals(List.of(), wrong, "of " + runs + " runs");
    }

    private static String outcome(FlowHandle<?> h) throws Exception {
        try {
            return String.valueOf(h.get(Duration.ofSeconds(20)));
        } catch (ExecutionException e) {
            return "threw " + e.getCause();
        }
    }
}
