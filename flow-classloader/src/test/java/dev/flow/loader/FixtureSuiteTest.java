package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.FlowStats;
import flowtest.support.Async;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs each fixture (plain blocking code, no annotations) in sync mode and in continuation mode and
 * checks that the results are identical and that continuation mode really suspended, on the
 * scheduler's workers only.
 */
class FixtureSuiteTest {

    private static ContinuationClassLoader loader;
    private static FlowScheduler scheduler;

    @BeforeAll
    static void setUp() {
        loader = ContinuationClassLoader.builder().include("flowtest.fixtures").strict(true).build();
        scheduler = FlowScheduler.builder().workers(2).name("fixtures").build();
    }

    @AfterAll
    static void tearDown() {
        scheduler.close();
    }

    @AfterEach
    void countsReturnToZero() {
        TestSupport.awaitIdle(scheduler);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"Loops", "DeepChain", "Recursion", "Dispatch", "Bridges", "Nesting", "Lambdas", "Locals",
        "TryFinally", "SleepLoop"})
    void continuationModeMatchesSyncModeAndSuspends(String fixture) throws Exception {
        String name = "flowtest.fixtures." + fixture;
        Object expected = ((Callable<?>) Class.forName(name).getDeclaredConstructor().newInstance()).call();

        FlowStats before = scheduler.stats();
        Async.THREADS.clear();
        FlowHandle<Object> h = scheduler.submit(loader.newInstance(Callable.class, name));
        Object actual = h.get(Duration.ofSeconds(20));
        FlowStats after = scheduler.stats();

        assertEquals(expected, actual);
        assertTrue(after.resumed() > before.resumed(), "continuation mode must suspend: " + after);
        for (Thread t : Async.THREADS) {
            assertTrue(scheduler.isWorker(t), "ran on " + t.getName() + ", not a worker");
        }
        assertTrue(Async.THREADS.size() <= scheduler.workers());
    }
}
