package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.spi.SuspensionPoint;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A pinned stretch left by an exception the JVM throws itself (a failed {@code checkcast} of a
 * suspension point's result inside a constructor) unpins the flow: its later await suspends.
 */
class PinReleaseTest {

    private static final SuspensionPoint WRONG = SuspensionPoint.replaceWithStatic("flowtest/castfail/Source", "name",
            "()Ljava/lang/String;", "flowtest/castfail/Source", "wrongReplacement", "(Lflowtest/castfail/Source;)Ljava/lang/Object;");

    @ParameterizedTest(name = "strict={0}")
    @CsvSource({"false, 'ClassCastException, then 5'", "true, 'UnsuspendableFrameException, then 5'"})
    void jvmExceptionInsideConstructorBracketUnpinsTheFlow(boolean strict, String expected) throws Exception {
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.castfail").suspensionPoint(WRONG)
                .strict(strict).build();
        try (FlowScheduler s = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("release").build()) {
            Object out = s.submit(loader.newInstance(Callable.class, "flowtest.castfail.CastFailsInConstructor"))
                    .get(Duration.ofSeconds(10));
            TestSupport.awaitIdle(s);
            assertEquals(expected, out);
            assertTrue(s.stats().resumed() > 0, () -> "the await after the constructor suspended: " + s.stats());
        }
    }
}
