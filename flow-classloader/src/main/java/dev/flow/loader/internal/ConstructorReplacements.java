package dev.flow.loader.internal;

import dev.flow.spi.SuspensionPoint;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;

/**
 * Applies the constructor points, before the analysis: {@code new T(args)} of such a constructor ({@code NEW T;
 * DUP; args; INVOKESPECIAL T.<init>}) becomes {@code args; INVOKESTATIC replacement}, whose call the analysis then
 * treats as a suspension point ({@link SuspensionPoint.Kind#CONSTRUCTOR}) or as any call ({@link
 * SuspensionPoint.Kind#CONSTRUCTOR_SUBSTITUTE}, a replacement that never waits). An allocation is matched to its
 * constructor call by nesting, as javac emits them; a method whose allocations do not nest so (other compilers'
 * shapes) is left as it is, and its calls are classified as before; so is the replacement itself, which builds the
 * object, and so are a waiting replacement's allocations in static initializers, which cannot suspend (a strict
 * loader refuses a suspension point there even if it would not wait). Stateless.
 */
final class ConstructorReplacements {

    private ConstructorReplacements() {
    }

    /** Rewrites {@code cn} in place with {@code points} (all constructor points); returns whether anything changed. */
    static boolean apply(ClassNode cn, List<SuspensionPoint> points) {
        if (points.isEmpty()) {
            return false;
        }
        boolean changed = false;
        for (MethodNode mn : cn.methods) {
            changed |= apply(cn.name, mn, points);
        }
        return changed;
    }

    /** Rewrites method {@code mn} of class {@code owner}; never a point's own replacement, which builds the object. */
    private static boolean apply(String owner, MethodNode mn, List<SuspensionPoint> points) {
        Deque<TypeInsnNode> open = new ArrayDeque<>();
        List<AbstractInsnNode[]> rewrites = new ArrayList<>();
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i.getOpcode() == Opcodes.NEW) {
                open.push((TypeInsnNode) i);
            } else if (i.getOpcode() == Opcodes.INVOKESPECIAL && ((MethodInsnNode) i).name.equals("<init>")) {
                MethodInsnNode call = (MethodInsnNode) i;
                TypeInsnNode alloc = open.peek();
                if (alloc == null || !alloc.desc.equals(call.owner)) {
                    if (mn.name.equals("<init>") && alloc == null) {
                        continue; // this(...) or super(...)
                    }
                    return false; // not javac's nesting: leave the method alone
                }
                open.pop();
                SuspensionPoint p = find(points, call);
                if (p != null && p.kind() == SuspensionPoint.Kind.CONSTRUCTOR && mn.name.equals("<clinit>")) {
                    p = null;
                }
                if (p != null && !isReplacement(p, owner, mn) && next(alloc) != null
                        && next(alloc).getOpcode() == Opcodes.DUP) {
                    rewrites.add(new AbstractInsnNode[] {alloc, next(alloc), call});
                }
            }
        }
        if (!open.isEmpty()) {
            return false;
        }
        for (AbstractInsnNode[] r : rewrites) {
            MethodInsnNode call = (MethodInsnNode) r[2];
            SuspensionPoint p = find(points, call);
            mn.instructions.remove(r[0]);
            mn.instructions.remove(r[1]);
            mn.instructions.set(call, new MethodInsnNode(Opcodes.INVOKESTATIC, p.replacementOwner(),
                    p.replacementName(), p.replacementDescriptor(), false));
        }
        return !rewrites.isEmpty();
    }

    private static boolean isReplacement(SuspensionPoint p, String owner, MethodNode mn) {
        return p.replacementOwner().equals(owner) && p.replacementName().equals(mn.name)
                && p.replacementDescriptor().equals(mn.desc);
    }

    private static SuspensionPoint find(List<SuspensionPoint> points, MethodInsnNode call) {
        for (SuspensionPoint p : points) {
            if (p.owner().equals(call.owner) && p.descriptor().equals(call.desc)) {
                return p;
            }
        }
        return null;
    }

    /** The next instruction that is not a label, line number or frame. */
    private static AbstractInsnNode next(AbstractInsnNode i) {
        AbstractInsnNode n = i.getNext();
        while (n != null && n.getOpcode() < 0) {
            n = n.getNext();
        }
        return n;
    }
}
