package dev.flow.loader;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

/**
 * Finds the exception-table shapes for which HotSpot's C1 refuses to compile a method: an instruction
 * that can throw, covered by an entry, in the basic block that begins at that entry's own handler
 * ("exception handler covers itself"); a handler also reached by a jump or by the instruction before it
 * ("Exception handler can be reached by both normal and exceptional control flow"); an instruction that can
 * throw, covered by an entry to a handler and reached from that handler's code by forward control flow only,
 * so that C1 parses it after the handler, outside any loop, and cannot merge a second state into the handler
 * ("error while joining with exception handler"; javac's {@code synchronized} cleanup once its monitor exit is
 * a call).
 */
final class C1RefusedHandlers {
    private C1RefusedHandlers() {
    }

    static List<String> in(byte[] classFile) {
        ClassNode cn = new ClassNode();
        new ClassReader(classFile).accept(cn, 0);
        List<String> out = new ArrayList<>();
        for (MethodNode m : cn.methods) {
            Set<LabelNode> jumpedTo = jumpTargets(m);
            Set<AbstractInsnNode> selfCovering = new HashSet<>();
            for (TryCatchBlockNode t : m.tryCatchBlocks) {
                if (jumpedTo.contains(t.handler) || fallsInto(t.handler)) {
                    out.add(cn.name + "." + m.name + m.desc + ": handler at " + m.instructions.indexOf(t.handler)
                            + " reached by normal control flow too");
                }
                AbstractInsnNode at = selfCovered(m, t);
                if (at != null && selfCovering.add(at)) {
                    out.add(cn.name + "." + m.name + m.desc + ": handler at " + m.instructions.indexOf(t.handler)
                            + " of [" + m.instructions.indexOf(t.start) + ", " + m.instructions.indexOf(t.end) + ") "
                            + t.type + " covers opcode " + at.getOpcode() + " at " + m.instructions.indexOf(at));
                }
            }
            for (LabelNode h : handlers(m)) {
                for (AbstractInsnNode at : throwingBackInto(m, h)) {
                    if (selfCovering.contains(at)) {
                        continue;
                    }
                    out.add(cn.name + "." + m.name + m.desc + ": handler at " + m.instructions.indexOf(h)
                            + " reached again from its own code by opcode " + at.getOpcode() + " at "
                            + m.instructions.indexOf(at));
                }
            }
        }
        return out;
    }

    /** {@code classFile} with a static call inserted at the start of every handler, as Flow once did. */
    static byte[] withCallAtEveryHandler(byte[] classFile) {
        ClassNode cn = new ClassNode();
        new ClassReader(classFile).accept(cn, ClassReader.SKIP_FRAMES);
        for (MethodNode m : cn.methods) {
            Set<LabelNode> done = new HashSet<>();
            for (TryCatchBlockNode t : m.tryCatchBlocks) {
                if (done.add(t.handler)) {
                    m.instructions.insert(t.handler, new MethodInsnNode(Opcodes.INVOKESTATIC, "java/lang/Thread", "onSpinWait", "()V", false));
                }
            }
        }
        ClassWriter w = new ClassWriter(0);
        cn.accept(w);
        return w.toByteArray();
    }

    /** The first instruction that can throw in the handler's own block and in the entry's range, or null. */
    private static AbstractInsnNode selfCovered(MethodNode m, TryCatchBlockNode t) {
        Set<LabelNode> leaders = leaders(m);
        int start = m.instructions.indexOf(t.start);
        int end = m.instructions.indexOf(t.end);
        for (AbstractInsnNode i = t.handler.getNext(); i != null; i = i.getNext()) {
            if (i instanceof LabelNode && leaders.contains(i)) {
                return null;
            }
            int index = m.instructions.indexOf(i);
            if (index > start && index < end && canThrow(i)) {
                return i;
            }
            if (endsBlock(i)) {
                return null;
            }
        }
        return null;
    }

    private static Set<LabelNode> handlers(MethodNode m) {
        Set<LabelNode> out = new LinkedHashSet<>();
        for (TryCatchBlockNode t : m.tryCatchBlocks) {
            out.add(t.handler);
        }
        return out;
    }

    /**
     * The instructions that can throw to {@code handler}, covered by one of its entries, among those reached from
     * it by fall-through and forward jumps.
     */
    private static List<AbstractInsnNode> throwingBackInto(MethodNode m, LabelNode handler) {
        List<AbstractInsnNode> out = new ArrayList<>();
        Set<AbstractInsnNode> seen = new HashSet<>();
        ArrayDeque<AbstractInsnNode> todo = new ArrayDeque<>();
        todo.add(handler);
        while (!todo.isEmpty()) {
            for (AbstractInsnNode i = todo.poll(); i != null && seen.add(i); i = i.getNext()) {
                if (canThrow(i) && coveredTo(m, i, handler)) {
                    out.add(i);
                }
                for (LabelNode target : targets(i)) {
                    if (m.instructions.indexOf(target) > m.instructions.indexOf(i)) {
                        todo.add(target);
                    }
                }
                if (endsBlock(i) && !(i instanceof JumpInsnNode && i.getOpcode() != Opcodes.GOTO)) {
                    break;
                }
            }
        }
        return out;
    }

    private static boolean coveredTo(MethodNode m, AbstractInsnNode i, LabelNode handler) {
        int at = m.instructions.indexOf(i);
        for (TryCatchBlockNode t : m.tryCatchBlocks) {
            if (t.handler == handler && at >= m.instructions.indexOf(t.start) && at < m.instructions.indexOf(t.end)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the instruction before {@code handler} goes on to it. */
    private static boolean fallsInto(LabelNode handler) {
        for (AbstractInsnNode i = handler.getPrevious(); i != null; i = i.getPrevious()) {
            if (i.getOpcode() >= 0) {
                return !endsBlock(i) || i.getOpcode() != Opcodes.GOTO && i instanceof JumpInsnNode;
            }
        }
        return false;
    }

    private static Set<LabelNode> leaders(MethodNode m) {
        Set<LabelNode> out = jumpTargets(m);
        for (TryCatchBlockNode t : m.tryCatchBlocks) {
            out.add(t.handler);
        }
        return out;
    }

    private static Set<LabelNode> jumpTargets(MethodNode m) {
        Set<LabelNode> out = new HashSet<>();
        for (AbstractInsnNode i = m.instructions.getFirst(); i != null; i = i.getNext()) {
            out.addAll(targets(i));
        }
        return out;
    }

    /** Where a jump or switch {@code i} may go; empty for any other instruction. */
    private static List<LabelNode> targets(AbstractInsnNode i) {
        List<LabelNode> out = new ArrayList<>();
        if (i instanceof JumpInsnNode) {
            out.add(((JumpInsnNode) i).label);
        } else if (i instanceof TableSwitchInsnNode) {
            out.add(((TableSwitchInsnNode) i).dflt);
            out.addAll(((TableSwitchInsnNode) i).labels);
        } else if (i instanceof LookupSwitchInsnNode) {
            out.add(((LookupSwitchInsnNode) i).dflt);
            out.addAll(((LookupSwitchInsnNode) i).labels);
        }
        return out;
    }

    private static boolean endsBlock(AbstractInsnNode i) {
        int op = i.getOpcode();
        return i instanceof JumpInsnNode || i instanceof TableSwitchInsnNode || i instanceof LookupSwitchInsnNode
                || (op >= Opcodes.IRETURN && op <= Opcodes.RETURN) || op == Opcodes.ATHROW;
    }

    /** Whether C1 may give the instruction exception handlers: all but local, constant, stack and plain arithmetic ones. */
    private static boolean canThrow(AbstractInsnNode i) {
        int op = i.getOpcode();
        if (op < 0) {
            return false;
        }
        if (op == Opcodes.IDIV || op == Opcodes.LDIV || op == Opcodes.IREM || op == Opcodes.LREM) {
            return true;
        }
        if (op >= Opcodes.IALOAD && op <= Opcodes.SALOAD || op >= Opcodes.IASTORE && op <= Opcodes.SASTORE) {
            return true;
        }
        return op >= Opcodes.GETSTATIC && op <= Opcodes.MULTIANEWARRAY && op != Opcodes.MONITOREXIT;
    }
}
