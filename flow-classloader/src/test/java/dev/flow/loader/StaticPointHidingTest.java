package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.spi.SuspensionPoint;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * A static suspension point (and a static substitute) matches calls of its method, also through a subclass that
 * inherits it, but not a subclass's own static of the same name and descriptor, which hides it ({@code SSLSocketFactory.getDefault()} is
 * not {@code SocketFactory.getDefault()}); a final substitute matches calls of its final method on the owner and
 * through subclasses, and is refused for a method that is not final.
 */
class StaticPointHidingTest {

    @Test
    void aStaticPointReplacesCallsThroughInheritingSubclassesButNotAHidingStatic() throws Exception {
        assertEquals("base base hiding", new flowtest.statics.CallsPauses().call());
        SuspensionPoint p = SuspensionPoint.replaceWithStatic("flowtest/statics/Base", "pause", "()Ljava/lang/String;",
                "flowtest/statics/Base", "pauseSuspending", "()Ljava/lang/String;");
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.statics").suspensionPoint(p)
                .strict(true).build();
        try (FlowScheduler s = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("statics").build()) {
            assertEquals("replaced replaced hiding",
                    s.submit(loader.newInstance(Callable.class, "flowtest.statics.CallsPauses")).get(Duration.ofSeconds(10)));
            assertEquals(2, s.stats().resumed(), s.stats().toString());
            TestSupport.awaitIdle(s);
        }
    }

    @Test
    void aStaticSubstituteReplacesTheSameCallsAndIsNoSuspensionPoint() throws Exception {
        SuspensionPoint p = SuspensionPoint.substituteStatic("flowtest/statics/Base", "pause", "()Ljava/lang/String;",
                "flowtest/statics/Base", "pauseSubstitute");
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.statics").suspensionPoint(p)
                .strict(true).build();
        assertEquals("substituted substituted hiding", loader.newInstance(Callable.class, "flowtest.statics.CallsPauses").call(),
                "on a plain thread");
        try (FlowScheduler s = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("statics").build()) {
            assertEquals("substituted substituted hiding",
                    s.submit(loader.newInstance(Callable.class, "flowtest.statics.CallsPauses")).get(Duration.ofSeconds(10)));
            assertEquals(0, s.stats().resumed(), s.stats().toString());
            TestSupport.awaitIdle(s);
        }
    }

    @Test
    void aFinalSubstituteReplacesCallsOnItsOwnerAndThroughSubclassesAndIsNoSuspensionPoint() throws Exception {
        assertEquals("final final label", new flowtest.statics.CallsFinals().call());
        SuspensionPoint p = SuspensionPoint.substituteFinal("flowtest/statics/Base", "name", "()Ljava/lang/String;",
                "flowtest/statics/Base", "nameSubstitute");
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.statics").suspensionPoint(p)
                .strict(true).build();
        try (FlowScheduler s = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("finals").build()) {
            assertEquals("substituted-Base substituted-Inheriting label",
                    s.submit(loader.newInstance(Callable.class, "flowtest.statics.CallsFinals")).get(Duration.ofSeconds(10)));
            assertEquals(0, s.stats().resumed(), s.stats().toString());
            TestSupport.awaitIdle(s);
        }
    }

    @Test
    void aFinalSubstituteOfAMethodThatIsNotFinalIsRefusedNamingIt() {
        SuspensionPoint p = SuspensionPoint.substituteFinal("flowtest/statics/Base", "label", "()Ljava/lang/String;",
                "flowtest/statics/Base", "nameSubstitute");
        Throwable e = assertThrows(InstrumentationException.class, () -> ContinuationClassLoader.builder()
                .include("flowtest.statics").suspensionPoint(p).build().newInstance(Callable.class, "flowtest.statics.CallsFinals"));
        assertTrue(e.getMessage().contains("flowtest.statics.Base.label()Ljava/lang/String;")
                && e.getMessage().contains("not a final instance method"), e.toString());
    }
}
