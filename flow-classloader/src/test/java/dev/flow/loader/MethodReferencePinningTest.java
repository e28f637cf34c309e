package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.UnsuspendableFrameException;
import dev.flow.internal.Pins;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A method reference to a blocking call handed to JDK code ({@code map(CompletableFuture::join)},
 * {@code map(Flow::await)}, {@code forEach(CompletableFuture::join)}) pins like the lambda form:
 * refused by site in strict mode, one warning per site in lenient mode.
 */
class MethodReferencePinningTest {

    private static final String PACKAGE = "flowtest.conformance.lambdas.";
    private static ContinuationClassLoader strict;
    private static ContinuationClassLoader lenient;
    private static FlowScheduler scheduler;

    @BeforeAll
    static void setUp() {
        strict = ContinuationClassLoader.builder().include("flowtest.conformance.lambdas").strict(true).build();
        lenient = ContinuationClassLoader.builder().include("flowtest.conformance.lambdas").build();
        scheduler = FlowScheduler.builder().workers(2).name("method-references").build();
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
        "BlockingReferenceInStream, join()Ljava/lang/Object;, 19",
        "FlowAwaitReferenceInStream, await(Ljava/util/concurrent/CompletableFuture;)Ljava/lang/Object;, 20",
        "BlockingReferenceInForEach, join()Ljava/lang/Object;, 18",
        "BlockingReferenceToLaterFutures, join()Ljava/lang/Object;, 18"})
    void strictModeRefusesTheReferenceNamingClassMethodAndLine(String fixture, String method, int line) {
        String msg = strictRefusal(fixture);
        assertTrue(msg.contains(PACKAGE + fixture + "." + method + " (line " + line + ")"), msg);
        assertTrue(msg.contains("called back through an uninstrumented frame"), msg);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "SerializableLambdaAwaiting, lambda\\$call\\$\\S+\\(I\\)Ljava/lang/Integer;, 14",
        "SerializableMethodReferenceAwaiting, slowName\\(\\)Ljava/lang/String;, 27"})
    void strictModeRefusesASerializableLambdaTargetUnderItsOwnNameAtTheLambdasLine(String fixture, String method, int line) {
        String msg = strictRefusal(fixture);
        String where = Pattern.quote(PACKAGE + fixture + ".") + method + Pattern.quote(" (line " + line + ")");
        assertTrue(Pattern.compile(where).matcher(msg).find(), msg + " (expected to match " + where + ")");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
        "BlockingReferenceInStream; [1, 2]",
        "FlowAwaitReferenceInStream; a,b",
        "BlockingReferenceInForEach; true"})
    void lenientModeGivesTheSyncResultAndDoesNotWarnWhenNothingBlocks(String fixture, String expected) throws Exception {
        assertEquals(0, TestSupport.newWarnings(scheduler, lenient, PACKAGE + fixture, expected, 3),
                () -> "no warning without a wait: " + Pins.warnings());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = "BlockingReferenceToLaterFutures; [1, 2]")
    void lenientModeBlocksAndWarnsOncePerSite(String fixture, String expected) throws Exception {
        TestSupport.runsWithOneWarning(scheduler, lenient, PACKAGE + fixture, expected);
    }

    /** Runs the fixture as a strict flow; returns the message of the refusal it must end with. */
    private static String strictRefusal(String fixture) {
        FlowHandle<Object> h = scheduler.submit(strict.newInstance(Callable.class, PACKAGE + fixture));
        ExecutionException e = assertThrows(ExecutionException.class, () -> h.get(Duration.ofSeconds(10)));
        return assertInstanceOf(UnsuspendableFrameException.class, e.getCause()).getMessage();
    }
}
