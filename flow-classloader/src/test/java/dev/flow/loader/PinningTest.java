package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.UnsuspendableFrameException;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Suspensions that would cross an uncapturable frame: refused in strict mode, blocking with one
 * warning per call site in lenient mode.
 */
class PinningTest {

    private static ContinuationClassLoader strict;
    private static ContinuationClassLoader lenient;
    private static FlowScheduler scheduler;

    @BeforeAll
    static void setUp() {
        strict = ContinuationClassLoader.builder().include("flowtest.fixtures").strict(true).build();
        lenient = ContinuationClassLoader.builder().include("flowtest.fixtures").build();
        scheduler = FlowScheduler.builder().workers(2).name("pinning").build();
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
    @CsvSource({
        "ForEachCallback, lambda$call$0, called back through an uninstrumented frame",
        "SynchronizedBlock, call, synchronized block holds a monitor",
        "SynchronizedMethod, locked, synchronized method holds its monitor",
        "ConstructorAwait$Holder, <init>, constructors cannot be suspended",
        "Reflective, call, reflective calls cannot be captured"})
    void strictModeRefusesWithClassMethodAndReason(String fixture, String method, String reason) {
        String outer = fixture.contains("$") ? fixture.substring(0, fixture.indexOf('$')) : fixture;
        FlowHandle<Object> h = scheduler.submit(strict.newInstance(Callable.class, "flowtest.fixtures." + outer));
        ExecutionException e = assertThrows(ExecutionException.class, () -> h.get(Duration.ofSeconds(10)));
        Throwable cause = e.getCause();
        while (!(cause instanceof UnsuspendableFrameException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        assertInstanceOf(UnsuspendableFrameException.class, cause);
        String msg = cause.getMessage();
        assertTrue(msg.contains("flowtest.fixtures." + fixture), msg);
        assertTrue(msg.contains(method), msg);
        assertTrue(msg.contains(reason), msg);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"ForEachCallback, 6", "SynchronizedBlock, 6", "SynchronizedMethod, 8", "ConstructorAwait, 9", "Reflective, 6"})
    void lenientModeBlocksAndWarnsOncePerSite(String fixture, String expected) throws Exception {
        TestSupport.runsWithOneWarning(scheduler, lenient, "flowtest.fixtures." + fixture, expected);
    }
}
