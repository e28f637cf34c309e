package dev.flow.loader.internal;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;

/**
 * The texts of the JVM's helpful {@code NullPointerException} messages (JEP 358), as HotSpot writes
 * them on JDK 17 and later: what failed ({@code Cannot invoke "String.trim()"}) and how a method is
 * named ({@code java.util.concurrent.Future.get()}; {@code java.lang.Object} and {@code
 * java.lang.String} written {@code Object} and {@code String}). Stateless.
 */
final class NullMessages {

    private NullMessages() {
    }

    /** What the JVM says failed when {@code n} met a null operand, e.g. {@code Cannot read field "text"}. */
    static String failedAction(AbstractInsnNode n) {
        int op = n.getOpcode();
        switch (op) {
            case Opcodes.INVOKEVIRTUAL:
            case Opcodes.INVOKEINTERFACE:
            case Opcodes.INVOKESPECIAL:
                return "Cannot invoke \"" + method((MethodInsnNode) n) + "\"";
            case Opcodes.GETFIELD:
                return "Cannot read field \"" + ((FieldInsnNode) n).name + "\"";
            case Opcodes.PUTFIELD:
                return "Cannot assign field \"" + ((FieldInsnNode) n).name + "\"";
            case Opcodes.ARRAYLENGTH:
                return "Cannot read the array length";
            case Opcodes.ATHROW:
                return "Cannot throw exception";
            case Opcodes.MONITORENTER:
                return "Cannot enter synchronized block";
            case Opcodes.MONITOREXIT:
                return "Cannot exit synchronized block";
            default:
                if (op >= Opcodes.IALOAD && op <= Opcodes.SALOAD) {
                    return "Cannot load from " + ARRAYS[op - Opcodes.IALOAD] + " array";
                }
                if (op >= Opcodes.IASTORE && op <= Opcodes.SASTORE) {
                    return "Cannot store to " + ARRAYS[op - Opcodes.IASTORE] + " array";
                }
                throw new IllegalArgumentException("opcode " + op + " does not dereference");
        }
    }

    /** The element kinds the JVM names, in the order of {@code IALOAD..SALOAD}. */
    private static final String[] ARRAYS = {"int", "long", "float", "double", "object", "byte/boolean", "char", "short"};

    /** How the JVM names the method {@code c} calls: {@code java.util.concurrent.BlockingQueue.poll(long, java.util.concurrent.TimeUnit)}. */
    static String method(MethodInsnNode c) {
        StringBuilder out = new StringBuilder();
        String owner = Type.getObjectType(c.owner).getClassName();
        out.append(owner.equals("java.lang.Object") ? "Object" : owner.equals("java.lang.String") ? "String" : owner);
        out.append('.').append(c.name).append('(');
        Type[] args = Type.getArgumentTypes(c.desc);
        for (int i = 0; i < args.length; i++) {
            if (i > 0) {
                out.append(", ");
            }
            String name = args[i].getClassName();
            // HotSpot drops the package of every parameter whose name starts so (java.lang.StringBuilder too).
            out.append(name.startsWith("java.lang.Object") || name.startsWith("java.lang.String")
                    ? name.substring("java.lang.".length()) : name);
        }
        return out.append(')').toString();
    }
}
