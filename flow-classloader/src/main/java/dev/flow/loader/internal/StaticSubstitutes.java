package dev.flow.loader.internal;

import dev.flow.spi.SuspensionPoint;
import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Applies the {@link SuspensionPoint.Kind#STATIC_SUBSTITUTE} points, before the analysis: a call of such a static
 * method becomes a call of its replacement, which never waits, so the call is no suspension point and may run in
 * constructors and static initializers. A call through a subclass that declares its own static of the same name
 * and descriptor runs that one and stays (see {@link Hierarchy#staticDeclarer}), and so do the calls in the
 * replacement's own class. Stateless.
 */
final class StaticSubstitutes {

    private StaticSubstitutes() {
    }

    /** Rewrites {@code cn} in place with {@code points} (all {@code STATIC_SUBSTITUTE}); returns whether anything changed. */
    static boolean apply(ClassNode cn, List<SuspensionPoint> points, Hierarchy hierarchy) {
        boolean changed = false;
        for (MethodNode mn : cn.methods) {
            for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
                if (i.getOpcode() != Opcodes.INVOKESTATIC) {
                    continue;
                }
                MethodInsnNode c = (MethodInsnNode) i;
                for (SuspensionPoint p : points) {
                    if (p.name().equals(c.name) && p.descriptor().equals(c.desc) && !p.replacementOwner().equals(cn.name)
                            && p.owner().equals(hierarchy.staticDeclarer(c.owner, c.name, c.desc))) {
                        c.owner = p.replacementOwner();
                        c.name = p.replacementName();
                        c.itf = false;
                        changed = true;
                        break;
                    }
                }
            }
        }
        return changed;
    }
}
