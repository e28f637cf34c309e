package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/**
 * A null field read before an awaited call that sets the field: loaded normally, the call on it
 * throws {@code because "this.text" is null}; through the loader the null read is what is
 * dereferenced too, but the message has no "because" part (README, "Helpful NullPointerException
 * messages").
 */
class NullAcrossAwaitTest {

    private static final String FIXTURE = "flowtest.conformance.nullmessages.CallOnFieldTheAwaitedCallSets";

    @Test
    void aFieldTheAwaitedCallSetsIsNotDereferencedInPlaceOfTheNullReadBeforeIt() throws Exception {
        Callable<?> plain = (Callable<?>) Class.forName(FIXTURE).getDeclaredConstructor().newInstance();
        NullPointerException reference = assertThrows(NullPointerException.class, plain::call);
        assertEquals("Cannot invoke \"String.concat(String)\" because \"this.text\" is null", reference.getMessage());

        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.conformance.nullmessages").build();
        NullPointerException onThread = assertThrows(NullPointerException.class,
                loader.newInstance(Callable.class, FIXTURE)::call);
        assertEquals("Cannot invoke \"String.concat(String)\"", onThread.getMessage());
        try (FlowScheduler s = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("race").build()) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> s.submit(loader.newInstance(Callable.class, FIXTURE)).get(Duration.ofSeconds(10)));
            assertEquals(NullPointerException.class, e.getCause().getClass());
            assertEquals("Cannot invoke \"String.concat(String)\"", e.getCause().getMessage());
            assertEquals(1, s.stats().resumed(), "the flow suspended in the awaited call");
            TestSupport.awaitIdle(s);
        }
    }
}
