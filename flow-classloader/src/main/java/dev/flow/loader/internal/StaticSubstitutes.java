package dev.flow.loader.internal;

import dev.flow.spi.SuspensionPoint;
import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Applies the {@link SuspensionPoint.Kind#STATIC_SUBSTITUTE} and {@link SuspensionPoint.Kind#FINAL_SUBSTITUTE} points,
 * before the analysis: a call of such a static method, or of such a final instance method (on the owner or a
 * subclass), becomes a static call of its replacement (taking the receiver first), which never waits, so the call
 * is no suspension point and may run in constructors and static initializers. A call through a subclass that
 * declares its own static of the same name and descriptor runs that one and stays (see {@link
 * Hierarchy#staticDeclarer}), and so do the calls in the replacement's own class. Stateless.
 */
final class StaticSubstitutes {

    private StaticSubstitutes() {
    }

    /**
     * Rewrites {@code cn} in place with {@code points} (all {@code STATIC_SUBSTITUTE} or {@code FINAL_SUBSTITUTE});
     * returns whether anything changed.
     */
    static boolean apply(ClassNode cn, List<SuspensionPoint> points, Hierarchy hierarchy) {
        boolean changed = false;
        for (MethodNode mn : cn.methods) {
            for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
                int op = i.getOpcode();
                if (op != Opcodes.INVOKESTATIC && op != Opcodes.INVOKEVIRTUAL) {
                    continue;
                }
                MethodInsnNode c = (MethodInsnNode) i;
                for (SuspensionPoint p : points) {
                    if (p.name().equals(c.name) && p.descriptor().equals(c.desc) && !p.replacementOwner().equals(cn.name)
                            && matches(p, c, hierarchy)) {
                        c.setOpcode(Opcodes.INVOKESTATIC);
                        c.owner = p.replacementOwner();
                        c.name = p.replacementName();
                        c.desc = p.replacementDescriptor();
                        c.itf = false;
                        changed = true;
                        break;
                    }
                }
            }
        }
        return changed;
    }

    /**
     * Whether call {@code c}, of the point's name and descriptor, runs the point's method: a static one declared by
     * the point's owner as seen from the call's owner, or the final method of the owner called on it or a subclass.
     */
    private static boolean matches(SuspensionPoint p, MethodInsnNode c, Hierarchy hierarchy) {
        if (p.kind() == SuspensionPoint.Kind.FINAL_SUBSTITUTE) {
            return c.getOpcode() == Opcodes.INVOKEVIRTUAL && hierarchy.isSubtype(c.owner, p.owner());
        }
        return c.getOpcode() == Opcodes.INVOKESTATIC && p.owner().equals(hierarchy.staticDeclarer(c.owner, c.name, c.desc));
    }
}
