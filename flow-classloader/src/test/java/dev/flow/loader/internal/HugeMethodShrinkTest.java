package dev.flow.loader.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.internal.Pins;
import dev.flow.loader.ContinuationClassLoader;
import flowtest.huge.Messages;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.util.CheckClassAdapter;

/**
 * {@link HugeMethodShrink} on {@link Messages#loop}, a message loop the engine takes past HotSpot's limit
 * for compiled methods: the shrunk method is back under the limit, defines and verifies, and suspends and
 * resumes at every sleep with every local as it was.
 */
class HugeMethodShrinkTest {

    private static final String MESSAGES = "flowtest/huge/Messages";
    private static final String LOOP = "loop([I)J";

    private static ClassLoader source() {
        return HugeMethodShrinkTest.class.getClassLoader();
    }

    /** The class as the engine writes it, before any shrinking. */
    private static byte[] engineOutput() {
        Object owner = new Object();
        try (Pins.Group sites = Pins.openGroup(owner)) {
            Set<String> classes = Instrumenter.scan(source(), List.of("flowtest.huge"), List.of());
            Instrumenter instrumenter = new Instrumenter(source(), classes, BuiltinSuspensionPoints.all(source()), false);
            return new EngineBridge(instrumenter, source()).enhance(instrumenter.prepared(MESSAGES));
        }
    }

    /** The class as a loader defines it. */
    private static byte[] defined(boolean strict) {
        return Scope.analyse(source(), List.of("flowtest.huge"), List.of(), List.of(), strict, new Object()).bytes(MESSAGES);
    }

    @Test
    void theEngineTakesTheLoopPastTheLimitAndShrinkingBringsItBackUnder() throws Exception {
        int asCompiled;
        try (InputStream in = source().getResourceAsStream(MESSAGES + ".class")) {
            asCompiled = HugeMethods.codeLengths(in.readAllBytes()).get(LOOP);
        }
        int engine = HugeMethods.codeLengths(engineOutput()).get(LOOP);
        int shrunk = HugeMethods.codeLengths(defined(false)).get(LOOP);
        assertTrue(asCompiled < HugeMethods.LIMIT / 4, "as compiled: " + asCompiled);
        assertTrue(engine > HugeMethods.LIMIT, "the engine's: " + engine);
        assertTrue(shrunk <= HugeMethods.LIMIT, "shrunk: " + shrunk + " (the engine's " + engine + ")");
    }

    @Test
    void theShrunkClassPassesTheTypeChecksOfAsmsVerifier() {
        StringWriter problems = new StringWriter();
        CheckClassAdapter.verify(new ClassReader(defined(false)), source(), false, new PrintWriter(problems));
        assertEquals("", problems.toString());
    }

    @Test
    void theHelpersArePrivateStaticAndEachMakesADifferentSequenceOfPushes() {
        ClassNode cn = new ClassNode();
        new ClassReader(defined(false)).accept(cn, 0);
        List<MethodNode> helpers = cn.methods.stream().filter(m -> m.name.startsWith(HugeMethodShrink.HELPER_PREFIX))
                .collect(Collectors.toList());
        assertTrue(helpers.size() > 1, "helpers: " + helpers.size());
        List<String> bodies = new ArrayList<>();
        for (MethodNode h : helpers) {
            assertEquals(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC, h.access, h.name);
            StringBuilder calls = new StringBuilder(h.desc);
            h.instructions.forEach(i -> calls.append(i instanceof org.objectweb.asm.tree.MethodInsnNode
                    ? " " + ((org.objectweb.asm.tree.MethodInsnNode) i).name : ""));
            bodies.add(calls.toString());
        }
        assertEquals(bodies.size(), Set.copyOf(bodies).size(), "one helper per sequence: " + bodies);
    }

    @Test
    void aClassWithoutAMethodPastTheLimitIsReturnedAsItIs() {
        ClassWriter w = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        w.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "p/Small", null, "java/lang/Object", null);
        w.visitEnd();
        byte[] small = w.toByteArray();
        assertSame(small, HugeMethodShrink.shrink(small));
        byte[] engine = engineOutput();
        byte[] onlyTheRest = withoutMethod(engine, "loop");
        assertSame(onlyTheRest, HugeMethodShrink.shrink(onlyTheRest));
    }

    @ParameterizedTest(name = "strict={0}")
    @ValueSource(booleans = {false, true})
    void theShrunkLoopSuspendsAtEverySleepAndReturnsWhatItReturnsUnloaded(boolean strict) throws Exception {
        int[] script = Messages.everyKind();
        Messages plain = new Messages(script);
        Object expected = plain.call();
        assertTrue(plain.sleeps() > Messages.KINDS, "sleeps: " + plain.sleeps());

        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("flowtest.huge").strict(strict).noCache().build();
        Callable<?> loaded = loader.newInstance(Callable.class, "flowtest.huge.Messages", (Object) script);
        try (FlowScheduler s = FlowScheduler.builder().workers(2).policy(SuspendPolicy.immediately()).name("shrunk").build()) {
            FlowHandle<?> h = s.submit(loaded);
            assertEquals(expected, h.get(Duration.ofSeconds(30)));
            assertEquals(plain.sleeps(), s.stats().resumed(), "one suspension per sleep");
            assertEquals(plain.sleeps(), loaded.getClass().getMethod("sleeps").invoke(loaded));
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while ((s.stats().running() != 0 || s.stats().suspended() != 0) && System.nanoTime() < deadline) {
                LockSupport.parkNanos(1_000_000);
            }
            assertEquals(0, s.stats().running());
            assertEquals(0, s.stats().suspended());
        }
        assertTrue(HugeMethods.warnings().stream().noneMatch(w -> w.startsWith("flowtest.huge.")), HugeMethods.warnings()::toString);
    }

    private static byte[] withoutMethod(byte[] b, String name) {
        ClassNode cn = new ClassNode();
        new ClassReader(b).accept(cn, 0);
        cn.methods.removeIf(m -> m.name.equals(name));
        ClassWriter w = new ClassWriter(0);
        cn.accept(w);
        return w.toByteArray();
    }
}
