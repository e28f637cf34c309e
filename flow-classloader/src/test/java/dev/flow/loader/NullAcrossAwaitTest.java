package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The shapes whose helpful {@code NullPointerException} message loses its "because ..." part through
 * the loader (README, "Helpful NullPointerException messages"): the message is the reference's up to
 * " because", never one naming another source, on a plain thread and in a flow. A field the awaited
 * call sets after the null was read (the null read is what is dereferenced), a conditional await
 * with other operands on the stack, a timed poll called on a class no holder can be made of, and a
 * transport read replaced by a static call.
 */
class NullAcrossAwaitTest {

    private static final String PACKAGE = "flowtest.conformance.nullmessages.";

    @ParameterizedTest
    @ValueSource(strings = {"CallOnFieldTheAwaitedCallSets", "ReceiverIsNullLocalWithConditionalAwaitArgument",
            "ReceiverIsReturnOfClassOwnedTimedPoll", "ReceiverIsReturnOfReadLineAtEnd"})
    void theMessageLosesItsBecausePartButNamesNoOtherSource(String fixture) throws Exception {
        String name = PACKAGE + fixture;
        Callable<?> plain = (Callable<?>) Class.forName(name).getDeclaredConstructor().newInstance();
        String reference = assertThrows(NullPointerException.class, plain::call).getMessage();
        int because = reference.indexOf(" because ");
        assertTrue(because > 0, reference);
        String expected = reference.substring(0, because);

        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.conformance.nullmessages").build();
        NullPointerException onThread = assertThrows(NullPointerException.class, loader.newInstance(Callable.class, name)::call);
        assertEquals(expected, onThread.getMessage());
        try (FlowScheduler s = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("nulls").build()) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> s.submit(loader.newInstance(Callable.class, name)).get(Duration.ofSeconds(10)));
            assertEquals(NullPointerException.class, e.getCause().getClass());
            assertEquals(expected, e.getCause().getMessage());
            TestSupport.awaitIdle(s);
        }
    }
}
