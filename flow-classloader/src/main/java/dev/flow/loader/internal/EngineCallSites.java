package dev.flow.loader.internal;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.MultiANewArrayInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Keeps the engine's call-site scan from failing on ordinary code.
 *
 * <p>Before instrumenting a method, JavaFlow's {@code CallSiteFinder} walks back from every {@code
 * invokevirtual} and {@code invokeinterface} to the instruction that pushed the receiver, counting
 * stack sizes with its own table, which miscounts method calls (for {@code (argSize << 2) | retSize}
 * it takes {@code -(x / 2) + x % 2}). Where a {@code long} or {@code double} push then takes its
 * count below zero it throws ({@code RuntimeException}, no message), e.g. {@code "S" + a + b + c + d
 * + future.get()} with four {@code long}s. This class runs the same walk and, where it would fail,
 * moves the call's receiver and arguments through fresh locals right before the call, so that the
 * walk ends at the receiver's load. The call and its operands' order are unchanged; a null
 * receiver's {@code NullPointerException} message there names that local instead of the
 * receiver's expression. Stateless.
 */
final class EngineCallSites {

    /** The engine's count per opcode; {@code FAILS} where the engine throws, {@code SPECIAL} where the instruction decides. */
    private static final int FAILS = Integer.MIN_VALUE;
    private static final int SPECIAL = Integer.MAX_VALUE;
    private static final int[] CHANGE = table();

    private EngineCallSites() {
    }

    /** Moves the operands of each call the engine's walk would fail on through fresh locals. */
    static void spillWhereEngineFails(MethodNode mn) {
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            int op = i.getOpcode();
            if ((op == Opcodes.INVOKEVIRTUAL || op == Opcodes.INVOKEINTERFACE) && walkFails((MethodInsnNode) i)) {
                spill(mn, (MethodInsnNode) i);
            }
        }
    }

    /** Whether the engine's walk back from {@code call} would take its count below zero. */
    static boolean walkFails(MethodInsnNode call) {
        int size = Type.getArgumentsAndReturnSizes(call.desc) >> 2;
        for (AbstractInsnNode p = call.getPrevious(); p != null; p = p.getPrevious()) {
            int c = change(p);
            if (c == FAILS) {
                return true;
            }
            size -= c;
            if (size == 0) {
                return false;
            }
            if (size < 0) {
                return true;
            }
        }
        return false;
    }

    private static void spill(MethodNode mn, MethodInsnNode call) {
        Type[] args = Type.getArgumentTypes(call.desc);
        int[] slots = new int[args.length];
        int receiver = mn.maxLocals++;
        for (int k = 0; k < args.length; k++) {
            slots[k] = mn.maxLocals;
            mn.maxLocals += args[k].getSize();
        }
        InsnList s = new InsnList();
        for (int k = args.length - 1; k >= 0; k--) {
            s.add(new VarInsnNode(args[k].getOpcode(Opcodes.ISTORE), slots[k]));
        }
        s.add(new VarInsnNode(Opcodes.ASTORE, receiver));
        s.add(new VarInsnNode(Opcodes.ALOAD, receiver));
        for (int k = 0; k < args.length; k++) {
            s.add(new VarInsnNode(args[k].getOpcode(Opcodes.ILOAD), slots[k]));
        }
        mn.instructions.insertBefore(call, s);
    }

    /** The engine's stack size change of {@code insn} ({@code CallSiteFinder.getStackSizeChange}), or {@code FAILS}. */
    private static int change(AbstractInsnNode insn) {
        int op = insn.getOpcode();
        if (op < 0) {
            return 0;
        }
        int c = op < CHANGE.length ? CHANGE[op] : FAILS;
        if (c != SPECIAL) {
            return c;
        }
        switch (op) {
            case Opcodes.LDC: {
                Object k = ((LdcInsnNode) insn).cst;
                return k instanceof Long || k instanceof Double ? 2 : 1;
            }
            case Opcodes.GETSTATIC:
                return Type.getType(((FieldInsnNode) insn).desc).getSize();
            case Opcodes.PUTSTATIC:
                return -Type.getType(((FieldInsnNode) insn).desc).getSize();
            case Opcodes.GETFIELD:
                return -1 + Type.getType(((FieldInsnNode) insn).desc).getSize();
            case Opcodes.PUTFIELD:
                return -1 - Type.getType(((FieldInsnNode) insn).desc).getSize();
            case Opcodes.INVOKEDYNAMIC:
                return miscounted(((InvokeDynamicInsnNode) insn).desc);
            case Opcodes.MULTIANEWARRAY:
                return 1 - ((MultiANewArrayInsnNode) insn).dims;
            default:
                return miscounted(((MethodInsnNode) insn).desc);
        }
    }

    private static int miscounted(String desc) {
        int x = Type.getArgumentsAndReturnSizes(desc);
        return -(x / 2) + x % 2;
    }

    private static int[] table() {
        int f = FAILS;
        int s = SPECIAL;
        return new int[] {
            0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 1, 1, 1, 2, 2, 1, 1, s, f,
            f, 1, 2, 1, 2, 1, f, f, f, f, f, f, f, f, f, f, f, f, f, f,
            f, f, f, f, f, f, -1, 0, -1, 0, -1, -1, -1, -1, -1, -2, -1, -2, -1, f,
            f, f, f, f, f, f, f, f, f, f, f, f, f, f, f, f, f, f, f, -3,
            -4, -3, -4, -3, -3, -3, -3, -1, -2, 1, 1, 1, 2, 2, 2, 0, -1, -2, -1, -2,
            -1, -2, -1, -2, -1, -2, -1, -2, -1, -2, -1, -2, -1, -2, -1, -2, 0, 0, 0, 0,
            -1, -2, -1, -2, -1, -2, -1, -2, -1, -2, -1, -2, 0, 1, 0, 1, -1, -1, 0, 0,
            1, 1, -1, 0, -1, 0, 0, 0, -3, -1, -1, -3, -3, -1, -1, -1, -1, -1, -1, -2,
            -2, -2, -2, -2, -2, -2, -2, 0, 1, 0, -1, -1, -1, -2, -1, -2, -1, 0, s, s,
            s, s, s, s, s, s, s, 1, 0, 0, 0, -1, 0, 0, -1, -1, f, s, -1, -1,
        };
    }
}
