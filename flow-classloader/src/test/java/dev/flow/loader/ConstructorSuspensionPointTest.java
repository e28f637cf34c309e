package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.spi.SuspensionPoint;
import flowtest.ctors.Slow;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * {@code SuspensionPoint.replaceConstructor}: {@code new Slow(int)} in loaded code becomes {@code Slow.open(int)},
 * which suspends; the arguments are evaluated as before, in the same order, nested allocations and branches
 * included; a subclass's {@code super(...)} call, other classes' allocations and allocations in static initializers
 * stay constructor calls.
 */
class ConstructorSuspensionPointTest {

    private static final SuspensionPoint OPEN = SuspensionPoint.replaceConstructor("flowtest/ctors/Slow", "(I)V",
            "flowtest/ctors/Slow", "open");

    @Test
    void anAllocationOfAReplacedConstructorSuspendsInAFlowAndBuildsTheSameValuesInTheSameOrder() throws Exception {
        Slow.made.clear();
        String plain = new flowtest.ctors.UsesSlow().call();
        List<Integer> plainOrder = List.copyOf(Slow.made);
        assertEquals("1 23 104 7 2001 4", plain);

        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.ctors").suspensionPoint(OPEN)
                .strict(true).build();
        try (FlowScheduler s = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("ctors").build()) {
            Object result = s.submit(loader.newInstance(Callable.class, "flowtest.ctors.UsesSlow")).get(Duration.ofSeconds(10));
            assertEquals(plain, result);
            assertEquals(plainOrder, made(loader), "the same constructions in the same order");
            assertEquals(plainOrder.size(), s.stats().resumed(), "one suspension per allocation: " + s.stats());
            TestSupport.awaitIdle(s);
        }
    }

    @Test
    void aSubclassesSuperCallAndOtherClassesAllocationsStayConstructorCalls() throws Exception {
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.ctors").suspensionPoint(OPEN)
                .build();
        Class<?> c = loader.loadClass("flowtest.ctors.ExtendsSlow");
        assertEquals(6, c.getMethod("make", int.class).invoke(null, 5));
        try (FlowScheduler s = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("ctors").build()) {
            Callable<Object> make = () -> c.getMethod("make", int.class).invoke(null, 8);
            assertEquals(9, s.submit(make).get(Duration.ofSeconds(10)));
            assertEquals(0, s.stats().resumed(), "nothing suspended: " + s.stats());
            TestSupport.awaitIdle(s);
        }
        assertEquals(List.of(6, 9), made(loader));
    }

    /** The constructions recorded by {@code loader}'s own copy of {@link Slow}. */
    private static List<?> made(ContinuationClassLoader loader) throws ReflectiveOperationException {
        return (List<?>) loader.loadClass("flowtest.ctors.Slow").getField("made").get(null);
    }

    @Test
    void anAllocationInAStaticInitializerStaysAConstructorCallSoThatAStrictLoaderRunsIt() throws Exception {
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.ctors").suspensionPoint(OPEN)
                .strict(true).build();
        try (FlowScheduler s = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("ctors").build()) {
            assertEquals(42, s.submit(loader.newInstance(Callable.class, "flowtest.ctors.StaticSlow")).get(Duration.ofSeconds(10)));
            assertEquals(0, s.stats().resumed(), "nothing suspended: " + s.stats());
            TestSupport.awaitIdle(s);
        }
        assertEquals(List.of(42), made(loader));
    }

    @Test
    void aConstructorPointWhoseDescriptorIsNotAConstructorsIsRefusedNamingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SuspensionPoint.replaceConstructor("flowtest/ctors/Slow", "(I)I", "flowtest/ctors/Slow", "open"));
        assertEquals("descriptor: (I)I (expected: a constructor's, returning V)", e.getMessage());
    }

    @Test
    void aConstructorPointWhoseReplacementDoesNotExistIsRefusedNamingTheMethod() {
        SuspensionPoint p = SuspensionPoint.replaceConstructor("flowtest/ctors/Slow", "(I)V", "flowtest/ctors/Slow", "close");
        InstrumentationException e = assertThrows(InstrumentationException.class,
                () -> ContinuationClassLoader.builder().include("flowtest.ctors").suspensionPoint(p).build());
        assertEquals("flowtest.ctors.Slow", e.className());
        assertEquals("close", e.methodName());
        assertEquals("(I)Lflowtest/ctors/Slow;", e.descriptor());
        assertTrue(e.getMessage().contains("no such static method"), e.getMessage());
    }
}
