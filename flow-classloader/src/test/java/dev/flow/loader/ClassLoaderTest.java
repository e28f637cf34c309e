package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.internal.Pins;
import dev.flow.spi.SuspensionPoint;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.util.Textifier;
import org.objectweb.asm.util.TraceMethodVisitor;

/** What the loader changes, what it leaves alone, and what it refuses. */
class ClassLoaderTest {

    private static final ContinuationClassLoader LOADER =
            ContinuationClassLoader.builder().include("flowtest.fixtures").strict(true).build();

    @Test
    void classesOutsideIncludedPackagesComeFromTheParentUnchanged() throws Exception {
        Class<?> viaLoader = LOADER.loadClass("flowtest.untouched.Outside");
        assertSame(flowtest.untouched.Outside.class, viaLoader);
        assertSame(String.class, LOADER.loadClass("java.lang.String"));
    }

    @Test
    void eachClassIsRewrittenWhenFirstLoadedNotWhenTheLoaderIsBuilt() throws Exception {
        int before = Pins.liveSites();
        ContinuationClassLoader lazy = ContinuationClassLoader.builder().include("flowtest.fixtures").build();
        int registeredByBuild = Pins.liveSites() - before;
        assertTrue(registeredByBuild <= 0, "pin sites registered by build(), before any class is loaded: " + registeredByBuild);
        assertEquals(6, lazy.newInstance(Callable.class, "flowtest.fixtures.ForEachCallback").call());
    }

    @Test
    void classesWithoutSuspensionPointsAreDefinedByteForByte() throws Exception {
        byte[] defined = LOADER.definedBytes("flowtest.fixtures.Pure");
        assertArrayEquals(original("flowtest/fixtures/Pure"), defined);
        assertSame(LOADER, LOADER.loadClass("flowtest.fixtures.Pure").getClassLoader());
    }

    @Test
    void overridesOfJdkMethodsGetADispatchMarkerNamedTheSameByEveryLoaderAndDefinedByEach() throws Exception {
        ContinuationClassLoader other = ContinuationClassLoader.builder().include("flowtest.fixtures").build();
        Class<?> mine = marker(LOADER.loadClass("flowtest.fixtures.Waiter"));
        Class<?> theirs = marker(other.loadClass("flowtest.fixtures.Waiter"));
        assertEquals(mine.getName(), theirs.getName());
        assertSame(LOADER, mine.getClassLoader());
        assertSame(other, theirs.getClassLoader());
        assertNotEquals(mine, theirs);
    }

    private static Class<?> marker(Class<?> type) {
        for (Class<?> i : type.getInterfaces()) {
            if (i.getName().startsWith("dev.flow.generated.dispatch.call$")) {
                return i;
            }
        }
        throw new AssertionError("no dispatch marker for call() on " + type + ": " + java.util.Arrays.toString(type.getInterfaces()));
    }

    @Test
    void methodsThatCannotReachASuspensionPointAreLeftIdentical() throws Exception {
        Map<String, String> before = methods(original("flowtest/fixtures/DeepChain"));
        Map<String, String> after = methods(LOADER.definedBytes("flowtest.fixtures.DeepChain"));
        assertEquals(before.get("plain(I)I"), after.get("plain(I)I"));
        assertEquals(before.get("<init>()V"), after.get("<init>()V"));
        assertNotEquals(before.get("d10(I)I"), after.get("d10(I)I"), "a suspending method must be instrumented");
        assertFalse(LOADER.isSuspendable("flowtest/fixtures/DeepChain", "plain", "(I)I"));
        assertTrue(LOADER.isSuspendable("flowtest/fixtures/DeepChain", "d1", "(I)I"));
    }

    @Test
    void interfaceAndAbstractDeclarationsWithSuspendingImplementationsAreSuspendable() {
        assertTrue(LOADER.isSuspendable("flowtest/fixtures/Step", "apply", "(I)I"));
        assertTrue(LOADER.isSuspendable("flowtest/fixtures/Shape", "sides", "()I"));
        assertTrue(LOADER.isSuspendable("flowtest/fixtures/Producer", "produce", "()Ljava/lang/Object;"));
    }

    @Test
    void newInstanceRefusesClassesOutsideTheScope() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LOADER.newInstance(Object.class, "flowtest.untouched.Outside"));
        assertTrue(e.getMessage().contains("flowtest.untouched.Outside"), e.getMessage());
        assertTrue(e.getMessage().contains("included package"), e.getMessage());
    }

    @Test
    void newInstanceRefusesAWrongType() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LOADER.newInstance(Runnable.class, "flowtest.fixtures.Loops"));
        assertTrue(e.getMessage().contains("java.lang.Runnable"), e.getMessage());
    }

    @Test
    void builderRejectsMissingAndInvalidPackages() {
        IllegalStateException none = assertThrows(IllegalStateException.class, () -> ContinuationClassLoader.builder().build());
        assertEquals("include: [] (expected: at least one package)", none.getMessage());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> ContinuationClassLoader.builder().include("com..example"));
        assertEquals("include: \"com..example\" (expected: a package name such as com.example.protocol)", bad.getMessage());
        IllegalArgumentException jdk = assertThrows(IllegalArgumentException.class,
                () -> ContinuationClassLoader.builder().include("java.util"));
        assertTrue(jdk.getMessage().contains("not a JDK package"), jdk.getMessage());
        IllegalArgumentException own = assertThrows(IllegalArgumentException.class,
                () -> ContinuationClassLoader.builder().exclude("dev.flow.internal"));
        assertTrue(own.getMessage().startsWith("exclude: \"dev.flow.internal\""), own.getMessage());
    }

    @Test
    void suspensionPointWithMissingReplacementFailsWithClassMethodAndDescriptor() {
        SuspensionPoint p = SuspensionPoint.replaceWithStatic("java/util/concurrent/BlockingQueue", "take",
                "()Ljava/lang/Object;", "flowtest/fixtures/Loops", "take", "(Ljava/util/concurrent/BlockingQueue;)Ljava/lang/Object;");
        InstrumentationException e = assertThrows(InstrumentationException.class,
                () -> ContinuationClassLoader.builder().include("flowtest.fixtures").suspensionPoint(p).build());
        assertEquals("flowtest.fixtures.Loops", e.className());
        assertEquals("take", e.methodName());
        assertEquals("(Ljava/util/concurrent/BlockingQueue;)Ljava/lang/Object;", e.descriptor());
        assertTrue(e.getMessage().contains("no such static method"), e.getMessage());
    }

    @Test
    void suspensionPointReplacementOutsideTheScopeIsRefused() {
        SuspensionPoint p = SuspensionPoint.replaceWithStatic("java/util/concurrent/BlockingQueue", "take",
                "()Ljava/lang/Object;", "flowtest/untouched/Outside", "take", "(Ljava/util/concurrent/BlockingQueue;)Ljava/lang/Object;");
        InstrumentationException e = assertThrows(InstrumentationException.class,
                () -> ContinuationClassLoader.builder().include("flowtest.fixtures").suspensionPoint(p).build());
        assertTrue(e.getMessage().contains("neither Flow's nor in an included package"), e.getMessage());
    }

    @Test
    void methodTooLargeAfterInstrumentationIsRefusedByAStrictLoaderAtLoadTimeNamingTheMethod() {
        ContinuationClassLoader l = ContinuationClassLoader.builder().include("flowtest.refused").strict(true).build();
        InstrumentationException e = assertThrows(InstrumentationException.class, () -> l.loadClass("flowtest.refused.Huge"));
        assertEquals("flowtest.refused.Huge", e.className());
        assertEquals("run", e.methodName());
        assertEquals("(Ljava/util/concurrent/CompletableFuture;)J", e.descriptor());
        assertTrue(e.getMessage().contains("too large"), e.getMessage());
    }

    @Test
    void inScopeCodeThatRunsJavaFlowContinuationsItselfIsRefusedNamingTheCall() {
        InstrumentationException e = assertThrows(InstrumentationException.class,
                () -> ContinuationClassLoader.builder().include("flowtest.owncontinuation").build());
        assertEquals("flowtest.owncontinuation.RunsContinuation", e.className());
        assertEquals("run", e.methodName());
        assertEquals("()V", e.descriptor());
        assertTrue(e.getMessage().contains("calls org.apache.commons.javaflow.api.Continuation.startWith("
                + "Ljava/lang/Runnable;)Lorg/apache/commons/javaflow/api/Continuation; at line 10"), e.getMessage());
        assertTrue(e.getMessage().contains("must not run JavaFlow continuations itself"), e.getMessage());
    }

    @Test
    void inScopeCodeThatResumesJavaFlowContinuationsByMethodReferenceIsRefused() {
        InstrumentationException e = assertThrows(InstrumentationException.class,
                () -> ContinuationClassLoader.builder().include("flowtest.owncontinuationref").build());
        assertEquals("flowtest.owncontinuationref.ResumesByReference", e.className());
        assertEquals("step", e.methodName());
        assertTrue(e.getMessage().contains("refers to org.apache.commons.javaflow.api.Continuation.resume()"
                + "Lorg/apache/commons/javaflow/api/Continuation; at line 11"), e.getMessage());
    }

    @Test
    void instrumentedMethodsLookUpTheRunningContinuationThroughFlowsEngine() {
        Map<String, String> code = methods(LOADER.definedBytes("flowtest.fixtures.DeepChain"));
        String d1 = code.get("d1(I)I");
        assertTrue(d1.contains("INVOKESTATIC dev/flow/internal/Engine.current ()Lorg/apache/commons/javaflow/core/StackRecorder;"),
                d1);
        assertFalse(code.values().stream().anyMatch(c -> c.contains("org/apache/commons/javaflow/core/StackRecorder.get")),
                code.toString());
    }

    @Test
    void instancesAreCreatedThroughTheLoader() {
        Callable<?> c = LOADER.newInstance(Callable.class, "flowtest.fixtures.Loops");
        assertSame(LOADER, c.getClass().getClassLoader());
    }

    private static byte[] original(String internalName) throws Exception {
        try (InputStream in = ClassLoaderTest.class.getClassLoader().getResourceAsStream(internalName + ".class")) {
            return in.readAllBytes();
        }
    }

    private static Map<String, String> methods(byte[] bytes) {
        ClassNode cn = new ClassNode();
        new ClassReader(bytes).accept(cn, ClassReader.SKIP_FRAMES);
        Map<String, String> out = new HashMap<>();
        for (MethodNode m : cn.methods) {
            Textifier t = new Textifier();
            m.accept(new TraceMethodVisitor(t));
            StringWriter w = new StringWriter();
            t.print(new PrintWriter(w));
            out.put(m.name + m.desc, w.toString());
        }
        return out;
    }
}
