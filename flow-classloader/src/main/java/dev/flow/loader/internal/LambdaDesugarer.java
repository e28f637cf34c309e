package dev.flow.loader.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Turns lambdas and method references whose functional interface is in scope into ordinary
 * classes, so that the JVM's hidden lambda classes (which never pass through a class loader) do not
 * stand between two instrumented frames.
 *
 * <p>{@code invokedynamic} sites using {@code LambdaMetafactory.metafactory} are replaced by a call to
 * a static factory of a generated class {@code Outer$$FlowLambda$N}. Sites it cannot translate
 * exactly (serializable lambdas, marker interfaces, unusual adaptations) are left alone.
 */
final class LambdaDesugarer {

    private static final String LMF = "java/lang/invoke/LambdaMetafactory";

    private final Hierarchy hierarchy;
    private final Map<String, ClassNode> nodes;

    LambdaDesugarer(Hierarchy hierarchy, Map<String, ClassNode> nodes) {
        this.hierarchy = hierarchy;
        this.nodes = nodes;
    }

    /** Desugars the eligible sites of {@code cn}; returns the generated classes. */
    List<ClassNode> desugar(ClassNode cn) {
        List<ClassNode> out = new ArrayList<>();
        for (MethodNode mn : cn.methods) {
            for (AbstractInsnNode insn = mn.instructions.getFirst(); insn != null; insn = insn.getNext()) {
                if (!(insn instanceof InvokeDynamicInsnNode)) {
                    continue;
                }
                InvokeDynamicInsnNode indy = (InvokeDynamicInsnNode) insn;
                if (!LMF.equals(indy.bsm.getOwner()) || !"metafactory".equals(indy.bsm.getName())) {
                    continue;
                }
                String iface = Type.getReturnType(indy.desc).getInternalName();
                if (!hierarchy.isInScope(iface)) {
                    continue;
                }
                String genName = cn.name + Names.LAMBDA_INFIX + (out.size() + countExisting(cn.name));
                ClassNode gen;
                try {
                    gen = generate(cn, indy, iface, genName);
                } catch (UnsupportedOperationException e) {
                    continue;
                }
                Handle impl = (Handle) indy.bsmArgs[1];
                openUp(cn, impl);
                MethodInsnNode call = new MethodInsnNode(Opcodes.INVOKESTATIC, genName, "create", indy.desc, false);
                mn.instructions.set(indy, call);
                insn = call;
                out.add(gen);
            }
        }
        return out;
    }

    private int countExisting(String outer) {
        int n = 0;
        for (String k : nodes.keySet()) {
            if (k.startsWith(outer + Names.LAMBDA_INFIX)) {
                n++;
            }
        }
        return n;
    }

    /** Makes a private implementation method of the outer class reachable from the generated class. */
    private static void openUp(ClassNode cn, Handle impl) {
        if (!impl.getOwner().equals(cn.name)) {
            return;
        }
        for (MethodNode m : cn.methods) {
            if (m.name.equals(impl.getName()) && m.desc.equals(impl.getDesc()) && (m.access & Opcodes.ACC_PRIVATE) != 0) {
                m.access &= ~Opcodes.ACC_PRIVATE;
                if ((cn.access & Opcodes.ACC_INTERFACE) != 0) {
                    m.access |= Opcodes.ACC_PUBLIC;
                }
            }
        }
    }

    private ClassNode generate(ClassNode outer, InvokeDynamicInsnNode indy, String iface, String genName) {
        Type samType = (Type) indy.bsmArgs[0];
        Handle impl = (Handle) indy.bsmArgs[1];
        Type instantiated = (Type) indy.bsmArgs[2];
        int tag = impl.getTag();
        if (tag == Opcodes.H_NEWINVOKESPECIAL && !impl.getOwner().equals(outer.name) && isPrivate(impl)) {
            throw new UnsupportedOperationException("private constructor");
        }
        if (!impl.getOwner().equals(outer.name) && !hierarchy.isInScope(impl.getOwner()) && !isPublicOrSamePackage(outer, impl)) {
            throw new UnsupportedOperationException("inaccessible implementation");
        }
        if (tag == Opcodes.H_INVOKESPECIAL && !impl.getOwner().equals(outer.name)) {
            throw new UnsupportedOperationException("super method reference");
        }
        Type[] captured = Type.getArgumentTypes(indy.desc);
        Type[] samArgs = samType.getArgumentTypes();
        Type[] instArgs = instantiated.getArgumentTypes();
        boolean instance = tag == Opcodes.H_INVOKEVIRTUAL || tag == Opcodes.H_INVOKEINTERFACE || tag == Opcodes.H_INVOKESPECIAL;
        Type[] implArgs = Type.getArgumentTypes(impl.getDesc());
        List<Type> targets = new ArrayList<>();
        if (instance) {
            targets.add(Type.getObjectType(impl.getOwner()));
        }
        for (Type t : implArgs) {
            targets.add(t);
        }
        if (targets.size() != captured.length + samArgs.length) {
            throw new UnsupportedOperationException("arity");
        }

        ClassNode g = new ClassNode();
        g.version = Math.max(outer.version, Opcodes.V1_8);
        g.access = Opcodes.ACC_FINAL | Opcodes.ACC_SUPER | Opcodes.ACC_SYNTHETIC;
        g.name = genName;
        g.superName = "java/lang/Object";
        g.interfaces = new ArrayList<>(List.of(iface));
        g.sourceFile = outer.sourceFile;

        StringBuilder ctorDesc = new StringBuilder("(");
        for (int i = 0; i < captured.length; i++) {
            g.fields.add(new FieldNode(Opcodes.ACC_PRIVATE | Opcodes.ACC_FINAL, "arg$" + i, captured[i].getDescriptor(), null, null));
            ctorDesc.append(captured[i].getDescriptor());
        }
        ctorDesc.append(")V");

        MethodNode ctor = new MethodNode(Opcodes.ACC_PRIVATE, "<init>", ctorDesc.toString(), null, null);
        InsnList c = ctor.instructions;
        c.add(new VarInsnNode(Opcodes.ALOAD, 0));
        c.add(new MethodInsnNode(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false));
        int slot = 1;
        for (int i = 0; i < captured.length; i++) {
            c.add(new VarInsnNode(Opcodes.ALOAD, 0));
            c.add(new VarInsnNode(captured[i].getOpcode(Opcodes.ILOAD), slot));
            c.add(new FieldInsnNode(Opcodes.PUTFIELD, genName, "arg$" + i, captured[i].getDescriptor()));
            slot += captured[i].getSize();
        }
        c.add(new InsnNode(Opcodes.RETURN));
        g.methods.add(ctor);

        MethodNode factory = new MethodNode(Opcodes.ACC_STATIC, "create", indy.desc, null, null);
        InsnList f = factory.instructions;
        f.add(new TypeInsnNode(Opcodes.NEW, genName));
        f.add(new InsnNode(Opcodes.DUP));
        slot = 0;
        for (Type t : captured) {
            f.add(new VarInsnNode(t.getOpcode(Opcodes.ILOAD), slot));
            slot += t.getSize();
        }
        f.add(new MethodInsnNode(Opcodes.INVOKESPECIAL, genName, "<init>", ctorDesc.toString(), false));
        f.add(new InsnNode(Opcodes.ARETURN));
        g.methods.add(factory);

        MethodNode sam = new MethodNode(Opcodes.ACC_PUBLIC, indy.name, samType.getDescriptor(), null, null);
        InsnList s = sam.instructions;
        if (tag == Opcodes.H_NEWINVOKESPECIAL) {
            s.add(new TypeInsnNode(Opcodes.NEW, impl.getOwner()));
            s.add(new InsnNode(Opcodes.DUP));
        }
        int ti = 0;
        for (int i = 0; i < captured.length; i++, ti++) {
            s.add(new VarInsnNode(Opcodes.ALOAD, 0));
            s.add(new FieldInsnNode(Opcodes.GETFIELD, genName, "arg$" + i, captured[i].getDescriptor()));
            adapt(s, captured[i], targets.get(ti));
        }
        slot = 1;
        for (int i = 0; i < samArgs.length; i++, ti++) {
            s.add(new VarInsnNode(samArgs[i].getOpcode(Opcodes.ILOAD), slot));
            slot += samArgs[i].getSize();
            Type via = i < instArgs.length ? instArgs[i] : samArgs[i];
            if (via.getSort() >= Type.ARRAY && samArgs[i].getSort() >= Type.ARRAY) {
                adapt(s, samArgs[i], via);
                adapt(s, via, targets.get(ti));
            } else {
                adapt(s, samArgs[i], targets.get(ti));
            }
        }
        Type implReturn;
        switch (tag) {
            case Opcodes.H_INVOKESTATIC:
                s.add(new MethodInsnNode(Opcodes.INVOKESTATIC, impl.getOwner(), impl.getName(), impl.getDesc(), impl.isInterface()));
                implReturn = Type.getReturnType(impl.getDesc());
                break;
            case Opcodes.H_INVOKEVIRTUAL:
            case Opcodes.H_INVOKESPECIAL:
                s.add(new MethodInsnNode(impl.isInterface() ? Opcodes.INVOKEINTERFACE : Opcodes.INVOKEVIRTUAL,
                        impl.getOwner(), impl.getName(), impl.getDesc(), impl.isInterface()));
                implReturn = Type.getReturnType(impl.getDesc());
                break;
            case Opcodes.H_INVOKEINTERFACE:
                s.add(new MethodInsnNode(Opcodes.INVOKEINTERFACE, impl.getOwner(), impl.getName(), impl.getDesc(), true));
                implReturn = Type.getReturnType(impl.getDesc());
                break;
            case Opcodes.H_NEWINVOKESPECIAL:
                s.add(new MethodInsnNode(Opcodes.INVOKESPECIAL, impl.getOwner(), "<init>", impl.getDesc(), false));
                implReturn = Type.getObjectType(impl.getOwner());
                break;
            default:
                throw new UnsupportedOperationException("handle kind " + tag);
        }
        Type samReturn = samType.getReturnType();
        if (samReturn.getSort() == Type.VOID) {
            if (implReturn.getSize() == 2) {
                s.add(new InsnNode(Opcodes.POP2));
            } else if (implReturn.getSize() == 1) {
                s.add(new InsnNode(Opcodes.POP));
            }
        } else {
            if (implReturn.getSort() == Type.VOID) {
                throw new UnsupportedOperationException("void to value");
            }
            adapt(s, implReturn, samReturn);
        }
        s.add(new InsnNode(samReturn.getOpcode(Opcodes.IRETURN)));
        g.methods.add(sam);
        return g;
    }

    private boolean isPrivate(Handle h) {
        ClassNode n = hierarchy.node(h.getOwner());
        if (n == null) {
            return false;
        }
        for (MethodNode m : n.methods) {
            if (m.name.equals(h.getName()) && m.desc.equals(h.getDesc())) {
                return (m.access & Opcodes.ACC_PRIVATE) != 0;
            }
        }
        return false;
    }

    private static boolean isPublicOrSamePackage(ClassNode outer, Handle impl) {
        String pkgA = outer.name.substring(0, Math.max(0, outer.name.lastIndexOf('/')));
        String pkgB = impl.getOwner().substring(0, Math.max(0, impl.getOwner().lastIndexOf('/')));
        return pkgA.equals(pkgB) || impl.getOwner().startsWith("java/");
    }

    /** Emits the conversion of a value of type {@code from} on the stack to {@code to}. */
    static void adapt(InsnList s, Type from, Type to) {
        if (from.equals(to)) {
            return;
        }
        boolean fromRef = from.getSort() >= Type.ARRAY;
        boolean toRef = to.getSort() >= Type.ARRAY;
        if (fromRef && toRef) {
            if (!"java/lang/Object".equals(to.getInternalName())) {
                s.add(new TypeInsnNode(Opcodes.CHECKCAST, to.getSort() == Type.ARRAY ? to.getDescriptor() : to.getInternalName()));
            }
            return;
        }
        if (!fromRef && toRef) {
            Type box = boxOf(from);
            s.add(new MethodInsnNode(Opcodes.INVOKESTATIC, box.getInternalName(), "valueOf",
                    "(" + from.getDescriptor() + ")" + box.getDescriptor(), false));
            if (!to.equals(box) && !"java/lang/Object".equals(to.getInternalName())) {
                s.add(new TypeInsnNode(Opcodes.CHECKCAST, to.getInternalName()));
            }
            return;
        }
        if (fromRef && !toRef) {
            Type box = boxOf(to);
            if (!from.equals(box)) {
                s.add(new TypeInsnNode(Opcodes.CHECKCAST, box.getInternalName()));
            }
            s.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, box.getInternalName(), to.getClassName() + "Value",
                    "()" + to.getDescriptor(), false));
            return;
        }
        throw new UnsupportedOperationException("primitive conversion " + from + " -> " + to);
    }

    private static Type boxOf(Type prim) {
        switch (prim.getSort()) {
            case Type.BOOLEAN: return Type.getObjectType("java/lang/Boolean");
            case Type.BYTE: return Type.getObjectType("java/lang/Byte");
            case Type.CHAR: return Type.getObjectType("java/lang/Character");
            case Type.SHORT: return Type.getObjectType("java/lang/Short");
            case Type.INT: return Type.getObjectType("java/lang/Integer");
            case Type.LONG: return Type.getObjectType("java/lang/Long");
            case Type.FLOAT: return Type.getObjectType("java/lang/Float");
            case Type.DOUBLE: return Type.getObjectType("java/lang/Double");
            default: throw new UnsupportedOperationException("not a primitive: " + prim);
        }
    }
}
