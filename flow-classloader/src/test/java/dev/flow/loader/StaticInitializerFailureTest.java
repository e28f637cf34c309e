package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * A static initializer whose await fails: the first use gives the same {@code
 * ExceptionInInitializerError} as loaded normally, the second the same {@code NoClassDefFoundError},
 * and the flow is not left pinned. Each run needs a fresh loader: a class is initialised once.
 */
class StaticInitializerFailureTest {

    private static final String FIXTURE = "flowtest.conformance.pins.FirstUseOfFailedClass";
    private static ContinuationClassLoader freshLoader(boolean strict) {
        return ContinuationClassLoader.builder().include("flowtest.conformance.pins").strict(strict).build();
    }

    /** Runs the fixture as a flow through a fresh loader; asserts it suspended and left the scheduler idle. */
    private static String runOnceInFlow(boolean strict) throws Exception {
        try (FlowScheduler s = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("clinit").build()) {
            Object out = s.submit(freshLoader(strict).newInstance(Callable.class, FIXTURE)).get(Duration.ofSeconds(10));
            TestSupport.awaitIdle(s);
            assertTrue(s.stats().resumed() > 0, () -> "the awaits after the failed initializer suspended: " + s.stats());
            return String.valueOf(out);
        }
    }

    @Test
    void failedStaticInitializerGivesTheSyncErrorsAndLeavesTheFlowSuspendable() throws Exception {
        Object expected = ((Callable<?>) Class.forName(FIXTURE).getDeclaredConstructor().newInstance()).call();
        assertTrue(String.valueOf(expected).startsWith("java.lang.ExceptionInInitializerError: null <- "
                + "java.util.concurrent.CompletionException: java.io.IOException: no settings / "
                + "java.lang.NoClassDefFoundError: Could not initialize class "), String.valueOf(expected));

        assertEquals(expected, freshLoader(false).newInstance(Callable.class, FIXTURE).call(), "plain thread");
        assertEquals(expected, runOnceInFlow(false), "lenient flow");
    }

    @Test
    void strictFlowIsRefusedInsideTheInitializerAndSuspendsAfterIt() throws Exception {
        String text = runOnceInFlow(true);
        assertTrue(text.startsWith("java.lang.ExceptionInInitializerError: null <- dev.flow.UnsuspendableFrameException: "
                + "cannot suspend at flowtest.conformance.pins.FirstUseOfFailedClass$Settings.<clinit>()V (line 15): "
                + "static initializers cannot be suspended / java.lang.NoClassDefFoundError: Could not initialize class "), text);
        assertTrue(text.endsWith(", then 13 and -13"), text);
    }
}
