package dev.flow.loader.internal;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.TypeInsnNode;

/**
 * The argument and result conversions {@code LambdaMetafactory} applies between a functional
 * interface method and its implementation: reference casts, boxing, unboxing and primitive widening,
 * in the order and with the methods the JDK's generated classes use, so that values and exceptions
 * (including the {@code NullPointerException} without a message that the JDK's hidden frames give)
 * are the same. Stateless.
 */
final class LambdaConversions {

    private static final String OBJECT = "java/lang/Object";
    private static final String NUMBER = "java/lang/Number";

    private LambdaConversions() {
    }

    /**
     * Emits the conversion of a value of type {@code arg} on the stack to {@code target}, checking
     * reference values against {@code functional} (the instantiated type) first.
     *
     * @throws UnsupportedOperationException if {@code LambdaMetafactory} would not adapt the types
     */
    static void convert(InsnList s, Type arg, Type target, Type functional) {
        if (arg.equals(target) && arg.equals(functional)) {
            return;
        }
        if (arg.getSort() == Type.VOID || target.getSort() == Type.VOID) {
            return;
        }
        if (isPrimitive(arg)) {
            if (isPrimitive(target)) {
                widen(s, arg, target);
                return;
            }
            Type targetPrimitive = unwrapped(target);
            if (targetPrimitive != null) {
                widen(s, arg, targetPrimitive);
                box(s, targetPrimitive);
            } else {
                Type box = wrapper(arg);
                box(s, arg);
                cast(s, box, target);
            }
            return;
        }
        Type src;
        if (isPrimitive(functional)) {
            src = arg;
        } else {
            src = functional;
            cast(s, arg, functional);
        }
        if (!isPrimitive(target)) {
            cast(s, src, target);
            return;
        }
        Type srcPrimitive = unwrapped(src);
        if (srcPrimitive != null) {
            widen(new InsnList(), srcPrimitive, target);
        }
        nullCheck(s);
        if (srcPrimitive != null) {
            if (isNumber(srcPrimitive)) {
                unbox(s, src, target);
            } else {
                unbox(s, src, srcPrimitive);
                widen(s, srcPrimitive, target);
            }
        } else {
            Type intermediate = isNumber(target) ? Type.getObjectType(NUMBER) : wrapper(target);
            cast(s, src, intermediate);
            unbox(s, intermediate, target);
        }
    }

    /** Throws a {@code NullPointerException} without a message if the reference on the stack is null. */
    static void nullCheck(InsnList s) {
        LabelNode ok = new LabelNode();
        s.add(new InsnNode(Opcodes.DUP));
        s.add(new JumpInsnNode(Opcodes.IFNONNULL, ok));
        s.add(new TypeInsnNode(Opcodes.NEW, "java/lang/NullPointerException"));
        s.add(new InsnNode(Opcodes.DUP));
        s.add(new MethodInsnNode(Opcodes.INVOKESPECIAL, "java/lang/NullPointerException", "<init>", "()V", false));
        s.add(new InsnNode(Opcodes.ATHROW));
        s.add(ok);
    }

    static boolean isPrimitive(Type t) {
        return t.getSort() < Type.ARRAY;
    }

    private static void cast(InsnList s, Type from, Type to) {
        if (!from.equals(to) && !(to.getSort() == Type.OBJECT && OBJECT.equals(to.getInternalName()))) {
            s.add(new TypeInsnNode(Opcodes.CHECKCAST, to.getSort() == Type.ARRAY ? to.getDescriptor() : to.getInternalName()));
        }
    }

    private static void box(InsnList s, Type primitive) {
        Type box = wrapper(primitive);
        s.add(new MethodInsnNode(Opcodes.INVOKESTATIC, box.getInternalName(), "valueOf",
                "(" + primitive.getDescriptor() + ")" + box.getDescriptor(), false));
    }

    private static void unbox(InsnList s, Type owner, Type primitive) {
        s.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, owner.getInternalName(), primitive.getClassName() + "Value",
                "()" + primitive.getDescriptor(), false));
    }

    private static boolean isNumber(Type primitive) {
        return primitive.getSort() != Type.BOOLEAN && primitive.getSort() != Type.CHAR;
    }

    /** Emits a widening primitive conversion, or fails if {@code from} does not widen to {@code to}. */
    private static void widen(InsnList s, Type from, Type to) {
        if (from.equals(to)) {
            return;
        }
        int f = from.getSort();
        int t = to.getSort();
        boolean intLike = f == Type.BYTE || f == Type.SHORT || f == Type.CHAR || f == Type.INT;
        if (intLike && t == Type.INT && f != Type.INT) {
            return;
        }
        if (f == Type.BYTE && t == Type.SHORT) {
            return;
        }
        if (intLike && t == Type.LONG) {
            s.add(new InsnNode(Opcodes.I2L));
        } else if (intLike && t == Type.FLOAT) {
            s.add(new InsnNode(Opcodes.I2F));
        } else if (intLike && t == Type.DOUBLE) {
            s.add(new InsnNode(Opcodes.I2D));
        } else if (f == Type.LONG && t == Type.FLOAT) {
            s.add(new InsnNode(Opcodes.L2F));
        } else if (f == Type.LONG && t == Type.DOUBLE) {
            s.add(new InsnNode(Opcodes.L2D));
        } else if (f == Type.FLOAT && t == Type.DOUBLE) {
            s.add(new InsnNode(Opcodes.F2D));
        } else {
            throw new UnsupportedOperationException("no widening conversion " + from + " -> " + to);
        }
    }

    /** The primitive type a wrapper class boxes, or {@code null}. */
    private static Type unwrapped(Type t) {
        if (t.getSort() != Type.OBJECT) {
            return null;
        }
        switch (t.getInternalName()) {
            case "java/lang/Boolean": return Type.BOOLEAN_TYPE;
            case "java/lang/Byte": return Type.BYTE_TYPE;
            case "java/lang/Character": return Type.CHAR_TYPE;
            case "java/lang/Short": return Type.SHORT_TYPE;
            case "java/lang/Integer": return Type.INT_TYPE;
            case "java/lang/Long": return Type.LONG_TYPE;
            case "java/lang/Float": return Type.FLOAT_TYPE;
            case "java/lang/Double": return Type.DOUBLE_TYPE;
            default: return null;
        }
    }

    private static Type wrapper(Type primitive) {
        switch (primitive.getSort()) {
            case Type.BOOLEAN: return Type.getObjectType("java/lang/Boolean");
            case Type.BYTE: return Type.getObjectType("java/lang/Byte");
            case Type.CHAR: return Type.getObjectType("java/lang/Character");
            case Type.SHORT: return Type.getObjectType("java/lang/Short");
            case Type.INT: return Type.getObjectType("java/lang/Integer");
            case Type.LONG: return Type.getObjectType("java/lang/Long");
            case Type.FLOAT: return Type.getObjectType("java/lang/Float");
            case Type.DOUBLE: return Type.getObjectType("java/lang/Double");
            default: throw new UnsupportedOperationException("not a primitive: " + primitive);
        }
    }
}
