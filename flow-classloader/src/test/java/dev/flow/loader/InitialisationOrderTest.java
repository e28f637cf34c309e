package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import flowtest.support.Events;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * {@code new T(args)} initialises {@code T} before the arguments are evaluated (JLS 12.4.1, JVMS
 * {@code new}), also when the engine has to move the allocation after a suspending argument.
 * Static initializers run once per class loader, so every run uses a fresh loader.
 */
class InitialisationOrderTest {

    private static ContinuationClassLoader freshLoader() {
        return ContinuationClassLoader.builder().include("flowtest.order").build();
    }

    @Test
    void classIsInitialisedBeforeTheConstructorArgumentsAsLoadedNormally() throws Exception {
        String expected = "[call, Resource.<clinit>, Plain.<clinit>, plain argument 1, Resource.<init> 1, "
                + "awaited argument 2, Resource.<init> 2, Remote.<clinit>, awaited argument 3, Resource.<init> 3]";
        String name = "flowtest.order.NewWithArguments";
        Events.drain();
        Object value = ((Callable<?>) Class.forName(name).getDeclaredConstructor().newInstance()).call();
        List<String> reference = Events.drain();
        assertEquals(expected, reference.toString(), "loaded normally");

        assertEquals(value, freshLoader().newInstance(Callable.class, name).call());
        assertEquals(reference, Events.drain(), "through the loader, on a plain thread");

        try (FlowScheduler s = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("order").build()) {
            assertEquals(value, s.submit(freshLoader().newInstance(Callable.class, name)).get(Duration.ofSeconds(10)));
            TestSupport.awaitIdle(s);
            assertTrue(s.stats().resumed() > 0, () -> "the flow suspended: " + s.stats());
        }
        assertEquals(reference, Events.drain(), "through the loader, in a flow");
    }
}
