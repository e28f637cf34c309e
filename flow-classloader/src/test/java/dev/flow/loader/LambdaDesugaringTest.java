package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.objectweb.asm.Opcodes.ACC_PRIVATE;
import static org.objectweb.asm.Opcodes.ACC_STATIC;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Lambdas are desugared only where their body can suspend: every other site keeps the JDK's
 * {@code invokedynamic}, and a class with no suspendable lambda and no suspension point is defined
 * byte for byte as compiled. An awaiting lambda on a JDK interface is split like any override of a JDK
 * method.
 */
class LambdaDesugaringTest {

    private static final ContinuationClassLoader LOADER =
            ContinuationClassLoader.builder().include("flowtest.conformance.lambdas").build();
    private static final String PACKAGE = "flowtest.conformance.lambdas.";

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"PureLambdas", "PureLambdas$Op"})
    void classesWhoseLambdasCannotSuspendAreDefinedUnchanged(String name) throws Exception {
        assertArrayEquals(original(PACKAGE + name), LOADER.definedBytes(PACKAGE + name));
    }

    @Test
    void onlyTheSitesWhoseBodyCanSuspendAreDesugared() throws Exception {
        ClassNode cn = read(PACKAGE + "LambdaIdentity");
        assertEquals(List.of("indy"), sites(cn, "nonCapturing"));
        assertEquals(List.of("indy"), sites(cn, "staticReference"));
        assertEquals(List.of("indy"), sites(cn, "capturing"));
        assertEquals(List.of("indy"), sites(cn, "bound"));
        assertEquals(List.of("create"), sites(cn, "nonCapturingAwaiting"));
        assertEquals(List.of("create"), sites(cn, "staticReferenceAwaiting"));
        assertEquals(List.of("create"), sites(cn, "capturingAwaiting"));
        assertEquals(List.of("create"), sites(cn, "boundAwaiting"));
    }

    @Test
    void privateTargetsStayPrivateAndAreReachedThroughAStaticAccessor() throws Exception {
        ClassNode cn = read(PACKAGE + "PrivateMethodReferenceIsNotOverridden$Base");
        int accessors = 0;
        for (MethodNode m : cn.methods) {
            if (m.name.equals("slowName") || m.name.equals("name")) {
                assertTrue((m.access & ACC_PRIVATE) != 0, m.name + " is no longer private");
            }
            if (m.name.startsWith("flow$lambda$")) {
                accessors++;
                assertTrue((m.access & ACC_STATIC) != 0, m.name + " is not static");
            }
        }
        assertEquals(1, accessors, "one accessor, for the one site whose target suspends");
        Callable<?> c = LOADER.newInstance(Callable.class, PACKAGE + "PrivateMethodReferenceIsNotOverridden");
        assertEquals("base,slow-base|sub,slow-sub", c.call());
    }

    @Test
    void awaitingLambdasOnJdkInterfacesBecomeSplitClassesWithADispatchMarker() throws Exception {
        String host = PACKAGE + "JdkInterfaceLambdaHandedToJdkCode";
        assertEquals(List.of("create", "create"), sites(read(host), "call$flow"));
        ClassNode lambda = read(host + "$$FlowLambda$0");
        assertTrue(lambda.interfaces.contains("java/util/function/Function"), () -> "interfaces: " + lambda.interfaces);
        assertTrue(lambda.interfaces.stream().anyMatch(i -> i.startsWith("dev/flow/generated/dispatch/")),
                () -> "no dispatch marker: " + lambda.interfaces);
        List<String> names = new ArrayList<>();
        for (MethodNode m : lambda.methods) {
            names.add(m.name + m.desc);
        }
        assertTrue(names.contains("apply(Ljava/lang/Object;)Ljava/lang/Object;"), () -> "methods: " + names);
        assertTrue(names.contains("apply$flow(Ljava/lang/Object;)Ljava/lang/Object;"), () -> "methods: " + names);
    }

    private static ClassNode read(String className) {
        ClassNode cn = new ClassNode();
        new ClassReader(LOADER.definedBytes(className)).accept(cn, 0);
        return cn;
    }

    /** For each lambda site of the methods named {@code method}: "indy" (kept) or "create" (desugared). */
    private static List<String> sites(ClassNode cn, String method) {
        List<String> out = new ArrayList<>();
        for (MethodNode m : cn.methods) {
            if (!m.name.equals(method)) {
                continue;
            }
            for (AbstractInsnNode i = m.instructions.getFirst(); i != null; i = i.getNext()) {
                if (i instanceof InvokeDynamicInsnNode
                        && ((InvokeDynamicInsnNode) i).bsm.getOwner().equals("java/lang/invoke/LambdaMetafactory")) {
                    out.add("indy");
                } else if (i instanceof MethodInsnNode && ((MethodInsnNode) i).name.equals("create")
                        && ((MethodInsnNode) i).owner.contains("$$FlowLambda$")) {
                    out.add("create");
                }
            }
        }
        return out;
    }

    private static byte[] original(String className) throws Exception {
        try (InputStream in = LambdaDesugaringTest.class.getClassLoader()
                .getResourceAsStream(className.replace('.', '/') + ".class")) {
            return in.readAllBytes();
        }
    }
}
