package dev.flow.loader.internal;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

/**
 * How many monitors a method holds at each instruction, by a forward pass over its control flow.
 * A handler starts with the depth of the start of its protected range, which matches the code
 * javac emits for {@code synchronized} blocks.
 */
final class MonitorDepth {

    /** A method without {@code monitorenter}: no monitor anywhere. */
    private static final MonitorDepth NONE = new MonitorDepth(null, null);

    private final InsnList insns;
    /** By instruction index; {@code null} for {@link #NONE}. */
    private final int[] depth;

    private MonitorDepth(InsnList insns, int[] depth) {
        this.insns = insns;
        this.depth = depth;
    }

    static MonitorDepth of(MethodNode m) {
        InsnList insns = m.instructions;
        int n = insns.size();
        boolean any = false;
        for (AbstractInsnNode i = insns.getFirst(); i != null; i = i.getNext()) {
            if (i.getOpcode() == Opcodes.MONITORENTER) {
                any = true;
                break;
            }
        }
        if (!any || n == 0) {
            return NONE;
        }
        int[] depth = new int[n];
        Arrays.fill(depth, -1);
        Deque<int[]> todo = new ArrayDeque<>();
        todo.add(new int[] {0, 0});
        while (!todo.isEmpty()) {
            int[] w = todo.poll();
            int idx = w[0];
            int d = w[1];
            while (idx < n && depth[idx] < 0) {
                depth[idx] = d;
                AbstractInsnNode insn = insns.get(idx);
                for (TryCatchBlockNode tcb : m.tryCatchBlocks) {
                    if (insns.indexOf(tcb.start) == idx) {
                        todo.add(new int[] {insns.indexOf(tcb.handler), d});
                    }
                }
                int op = insn.getOpcode();
                if (op == Opcodes.MONITORENTER) {
                    d++;
                } else if (op == Opcodes.MONITOREXIT) {
                    d = Math.max(0, d - 1);
                }
                if (insn instanceof JumpInsnNode) {
                    todo.add(new int[] {insns.indexOf(((JumpInsnNode) insn).label), d});
                    if (op == Opcodes.GOTO) {
                        break;
                    }
                } else if (insn instanceof TableSwitchInsnNode) {
                    TableSwitchInsnNode s = (TableSwitchInsnNode) insn;
                    todo.add(new int[] {insns.indexOf(s.dflt), d});
                    for (LabelNode l : s.labels) {
                        todo.add(new int[] {insns.indexOf(l), d});
                    }
                    break;
                } else if (insn instanceof LookupSwitchInsnNode) {
                    LookupSwitchInsnNode s = (LookupSwitchInsnNode) insn;
                    todo.add(new int[] {insns.indexOf(s.dflt), d});
                    for (LabelNode l : s.labels) {
                        todo.add(new int[] {insns.indexOf(l), d});
                    }
                    break;
                } else if ((op >= Opcodes.IRETURN && op <= Opcodes.RETURN) || op == Opcodes.ATHROW) {
                    break;
                }
                idx++;
            }
        }
        return new MonitorDepth(insns, depth);
    }

    /** Monitors held when {@code insn} runs (0 for unreachable code). */
    int at(AbstractInsnNode insn) {
        if (depth == null) {
            return 0;
        }
        int d = depth[insns.indexOf(insn)];
        return Math.max(d, 0);
    }
}
