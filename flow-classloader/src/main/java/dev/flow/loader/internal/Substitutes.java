package dev.flow.loader.internal;

import dev.flow.loader.InstrumentationException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;

/**
 * Puts Flow's suspendable versions of JDK classes ({@code dev.flow.jdk}) in place of the JDK's in
 * loaded code, before the analysis: each {@code new} of a substituted JDK class (and its constructor
 * call) creates Flow's subclass instead, and an in-scope class extending a substituted JDK class
 * extends Flow's subclass instead (its constructors' and {@code super.m()} calls follow). Flow's
 * classes then join the scope, so the loader defines and instruments its own copies: their waits
 * are suspension points like the code that uses them.
 *
 * <p>Every substitute declares every public constructor of the class it replaces, with the same
 * descriptor. Types in signatures, casts, {@code instanceof} and class literals stay the JDK's:
 * the substitute is a subtype. Stateless; used under the instrumenter's construction only.
 */
final class Substitutes {

    private static final String PKG = "dev/flow/jdk/";

    /** JDK class to the Flow class created in its place. */
    static final Map<String, String> BY_JDK_CLASS = Map.of(
            "java/util/concurrent/locks/ReentrantLock", PKG + "FlowReentrantLock",
            "java/util/concurrent/locks/ReentrantReadWriteLock", PKG + "FlowReentrantReadWriteLock");

    /** Every class of {@code dev.flow.jdk} a substitute needs, nested ones included. */
    static final List<String> CLASSES = List.of(
            PKG + "OwnedSync", PKG + "OwnedSync$Waiter", PKG + "FlowCondition", PKG + "FlowReentrantLock",
            PKG + "FlowReentrantReadWriteLock", PKG + "FlowReentrantReadWriteLock$FlowReadLock",
            PKG + "FlowReentrantReadWriteLock$FlowWriteLock");

    private Substitutes() {
    }

    /** Whether {@code internalName} is one of Flow's substitutes (never rewritten itself). */
    static boolean isSubstitute(String internalName) {
        return internalName.startsWith(PKG);
    }

    /**
     * Rewrites {@code cn} in place; returns whether anything changed.
     */
    static boolean apply(ClassNode cn) {
        if (isSubstitute(cn.name)) {
            return false;
        }
        boolean changed = false;
        String oldSuper = cn.superName;
        String newSuper = BY_JDK_CLASS.get(oldSuper);
        if (newSuper != null) {
            cn.superName = newSuper;
            changed = true;
        }
        for (MethodNode mn : cn.methods) {
            for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
                if (i.getOpcode() == Opcodes.NEW) {
                    TypeInsnNode t = (TypeInsnNode) i;
                    String sub = BY_JDK_CLASS.get(t.desc);
                    if (sub != null) {
                        t.desc = sub;
                        changed = true;
                    }
                } else if (i.getOpcode() == Opcodes.INVOKESPECIAL) {
                    MethodInsnNode c = (MethodInsnNode) i;
                    String sub = BY_JDK_CLASS.get(c.owner);
                    if (sub != null && (c.name.equals("<init>") || c.owner.equals(oldSuper))) {
                        c.owner = sub;
                        changed = true;
                    }
                }
            }
        }
        return changed;
    }

    /**
     * Reads the substitute classes from {@code parent}, for the loader to define.
     *
     * @throws InstrumentationException if one is missing (flow-core not on the parent's class path)
     */
    static Map<String, byte[]> read(ClassLoader parent) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        for (String name : CLASSES) {
            byte[] b = Hierarchy.readBytes(parent, name);
            if (b == null) {
                throw new InstrumentationException(name.replace('/', '.'), "", "", "Flow's substitute class is not visible"
                        + " to the parent class loader");
            }
            out.put(name, b);
        }
        return out;
    }
}
