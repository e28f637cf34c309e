package dev.flow.loader.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.internal.Pins;
import dev.flow.loader.ContinuationClassLoader;
import flowtest.loops.Loops;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.util.CheckClassAdapter;

/**
 * {@link ReducibleLoops} on {@link Loops} (a suspension point inside loops of every shape) and on the message loop
 * {@link HugeMethodShrink} shrinks: the engine enters those loops in the middle; as defined, every loop has one
 * entry, the class verifies, and every read suspends and resumes with every local as it was.
 */
class ReducibleLoopsTest {

    private static final String LOOPS = "flowtest/loops/Loops";
    private static final Set<String> LOOP_METHODS = Set.of("counted", "arrayBetweenReads", "nested", "handlerContinues",
            "doWhile", "labelledContinue", "switchInLoop", "text");

    private static ClassLoader source() {
        return ReducibleLoopsTest.class.getClassLoader();
    }

    /** The class as the engine writes it. */
    private static byte[] engineOutput(String pkg, String internalName) {
        Object owner = new Object();
        try (Pins.Group sites = Pins.openGroup(owner)) {
            Set<String> classes = Instrumenter.scan(source(), List.of(pkg), List.of());
            Instrumenter instrumenter = new Instrumenter(source(), classes, BuiltinSuspensionPoints.all(source()), false);
            return new EngineBridge(instrumenter, source()).enhance(instrumenter.prepared(internalName));
        }
    }

    /** The class as a loader defines it. */
    private static byte[] defined(String pkg, String internalName) {
        return Scope.analyse(source(), List.of(pkg), List.of(), List.of(), false, new Object()).bytes(internalName);
    }

    /** The names of the methods of {@code b} with a loop entered other than through its header. */
    private static Set<String> withLoopsEnteredInTheMiddle(byte[] b) {
        ClassNode cn = new ClassNode();
        new ClassReader(b).accept(cn, 0);
        Set<String> names = new TreeSet<>();
        for (MethodNode m : cn.methods) {
            if (!ReducibleLoops.singleEntryLoops(m)) {
                names.add(m.name);
            }
        }
        return names;
    }

    @Test
    void theEngineEntersEveryLoopAroundASuspensionInTheMiddle() {
        assertEquals(new TreeSet<>(LOOP_METHODS), withLoopsEnteredInTheMiddle(engineOutput("flowtest.loops", LOOPS)));
    }

    @Test
    void asDefinedEveryLoopIsEnteredThroughItsHeader() {
        assertEquals(Set.of(), withLoopsEnteredInTheMiddle(defined("flowtest.loops", LOOPS)));
    }

    @Test
    void theShrunkMessageLoopIsEnteredThroughItsHeaderToo() {
        String messages = "flowtest/huge/Messages";
        assertEquals(Set.of("loop"), withLoopsEnteredInTheMiddle(engineOutput("flowtest.huge", messages)));
        assertEquals(Set.of(), withLoopsEnteredInTheMiddle(defined("flowtest.huge", messages)));
    }

    @Test
    void theDefinedClassPassesTheTypeChecksOfAsmsVerifier() {
        StringWriter problems = new StringWriter();
        CheckClassAdapter.verify(new ClassReader(defined("flowtest.loops", LOOPS)), source(), false, new PrintWriter(problems));
        assertEquals("", problems.toString());
    }

    @Test
    void aClassWhoseLoopsAreSingleEntryIsReturnedAsItIs() {
        byte[] once = ReducibleLoops.apply(engineOutput("flowtest.loops", LOOPS));
        assertTrue(ReducibleLoops.apply(once) == once, "a second pass returns its input");
    }

    @ParameterizedTest(name = "strict={0}")
    @ValueSource(booleans = {false, true})
    void everyLoopSuspendsAtEveryReadAndReturnsWhatItReturnsUnloaded(boolean strict) throws Exception {
        Loops plain = new Loops();
        Object expected = plain.call();
        assertTrue(plain.reads() > 40, "reads: " + plain.reads());

        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.loops").strict(strict).noCache().build();
        Callable<?> loaded = loader.newInstance(Callable.class, "flowtest.loops.Loops");
        try (FlowScheduler s = FlowScheduler.builder().workers(2).policy(SuspendPolicy.immediately()).name("loops").build()) {
            FlowHandle<?> h = s.submit(loaded);
            assertEquals(expected, h.get(Duration.ofSeconds(30)));
            assertEquals(plain.reads(), s.stats().resumed(), "one suspension per read");
            assertEquals(plain.reads(), loaded.getClass().getMethod("reads").invoke(loaded));
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while ((s.stats().running() != 0 || s.stats().suspended() != 0) && System.nanoTime() < deadline) {
                LockSupport.parkNanos(1_000_000);
            }
            assertEquals(0, s.stats().running());
            assertEquals(0, s.stats().suspended());
        }
    }
}
