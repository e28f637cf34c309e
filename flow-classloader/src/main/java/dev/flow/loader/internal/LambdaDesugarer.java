package dev.flow.loader.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Turns lambdas and method references into ordinary classes, so that the JVM's hidden lambda classes
 * (which never pass through a class loader) do not stand between two instrumented frames. Every
 * site is translated, on in-scope and on JDK functional interfaces alike; {@link Instrumenter} puts
 * back those whose body cannot suspend. A generated class implementing a JDK interface is split like
 * any override of a JDK method: in-scope callers reach its suspendable body through the dispatch
 * marker ({@link Dispatch}), JDK callers its pinning wrapper, whose site names the host, the
 * method the lambda names and the site's line ({@link Site#target()}, {@link Site#line}).
 *
 * <p>An {@code invokedynamic} site of {@code LambdaMetafactory.metafactory} or {@code altMetafactory}
 * becomes a call to the static factory of a generated class {@code Host$$FlowLambda$N}. The generated
 * class never calls the implementation method itself: it calls a static synthetic accessor {@code
 * flow$lambda$K} added to the host (the class that contained the site, which is the class whose access
 * rights {@code LambdaMetafactory} uses), and the accessor makes the very call the method handle
 * stands for ({@code invokestatic}, {@code invokevirtual}, {@code invokeinterface}, {@code
 * invokespecial} for private and super methods, or {@code new}). Private methods stay private and
 * are never made overridable; nestmates' private members are reached with the host's nestmate
 * access. Arguments and results are adapted as {@code LambdaMetafactory} adapts them ({@link
 * LambdaConversions}), bridges and marker interfaces of {@code altMetafactory} are implemented, and
 * a non-capturing site yields one object, as the JDK's do.
 *
 * <p>Sites it cannot translate exactly are left alone: serializable lambdas, protected methods of
 * another package, and shapes {@code LambdaMetafactory} itself would refuse. Not thread-safe; used
 * once by {@link Instrumenter}.
 */
final class LambdaDesugarer {

    private static final String LMF = "java/lang/invoke/LambdaMetafactory";
    private static final int FLAG_SERIALIZABLE = 1;
    private static final int FLAG_MARKERS = 2;
    private static final int FLAG_BRIDGES = 4;
    static final String ACCESSOR_PREFIX = "flow$lambda$";

    /** One desugared site, which can be put back as it was. */
    static final class Site {
        final ClassNode host;
        final MethodNode method;
        final InvokeDynamicInsnNode indy;
        final MethodInsnNode call;
        final ClassNode generated;
        final MethodNode accessor;
        /** The source line of the site, or -1 without line numbers. */
        final int line;

        Site(ClassNode host, MethodNode method, InvokeDynamicInsnNode indy, MethodInsnNode call, ClassNode generated,
                MethodNode accessor, int line) {
            this.host = host;
            this.method = method;
            this.indy = indy;
            this.call = call;
            this.generated = generated;
            this.accessor = accessor;
            this.line = line;
        }

        /** The method the lambda or method reference names, as a pin site shows it: {@code name+desc}. */
        String target() {
            Handle impl = (Handle) indy.bsmArgs[1];
            return impl.getName() + impl.getDesc();
        }

        /** Restores the original {@code invokedynamic} and removes the accessor from the host. */
        void revert() {
            method.instructions.set(call, indy);
            host.methods.remove(accessor);
        }

        /** The implementations of the functional interface method in the generated class. */
        List<MethodNode> interfaceMethods() {
            List<MethodNode> out = new ArrayList<>();
            for (MethodNode m : generated.methods) {
                if ((m.access & Opcodes.ACC_STATIC) == 0 && !m.name.startsWith("<")) {
                    out.add(m);
                }
            }
            return out;
        }
    }

    private final Hierarchy hierarchy;
    private final Map<String, ClassNode> nodes;
    /** See {@link #countExisting}; {@code null} until first needed. */
    private Map<String, Integer> existingByOuter;

    LambdaDesugarer(Hierarchy hierarchy, Map<String, ClassNode> nodes) {
        this.hierarchy = hierarchy;
        this.nodes = nodes;
    }

    /** Desugars the eligible sites of {@code cn}. */
    List<Site> desugar(ClassNode cn) {
        List<Site> out = new ArrayList<>();
        int existing = -1;
        for (MethodNode mn : new ArrayList<>(cn.methods)) {
            int line = -1;
            for (AbstractInsnNode insn = mn.instructions.getFirst(); insn != null; insn = insn.getNext()) {
                if (insn instanceof LineNumberNode) {
                    line = ((LineNumberNode) insn).line;
                }
                if (!(insn instanceof InvokeDynamicInsnNode) || !isLambdaSite((InvokeDynamicInsnNode) insn)) {
                    continue;
                }
                if (existing < 0) {
                    existing = countExisting(cn.name);
                }
                String genName = cn.name + Names.LAMBDA_INFIX + (existing + out.size());
                Site site;
                try {
                    site = translate(cn, mn, (InvokeDynamicInsnNode) insn, genName, line);
                } catch (UnsupportedOperationException e) {
                    continue;
                }
                insn = site.call;
                out.add(site);
                if (!nodes.containsKey(genName)) {
                    countOuters(genName);
                }
            }
        }
        return out;
    }

    static boolean isLambdaSite(InvokeDynamicInsnNode indy) {
        return LMF.equals(indy.bsm.getOwner())
                && ("metafactory".equals(indy.bsm.getName()) || "altMetafactory".equals(indy.bsm.getName()))
                && indy.bsmArgs.length >= 3 && indy.bsmArgs[1] instanceof Handle;
    }

    /**
     * How many in-scope classes are named {@code outer + LAMBDA_INFIX + ...}. The counts of all outer
     * names are taken from the scope once, then kept up to date with the classes {@link #desugar} names
     * (the caller adds each to the scope before the next call).
     */
    private int countExisting(String outer) {
        if (existingByOuter == null) {
            existingByOuter = new HashMap<>();
            for (String k : nodes.keySet()) {
                countOuters(k);
            }
        }
        return existingByOuter.getOrDefault(outer, 0);
    }

    /** Counts {@code name} for every outer name it starts with followed by {@code LAMBDA_INFIX}. */
    private void countOuters(String name) {
        for (int i = name.indexOf(Names.LAMBDA_INFIX); i >= 0; i = name.indexOf(Names.LAMBDA_INFIX, i + 1)) {
            existingByOuter.merge(name.substring(0, i), 1, Integer::sum);
        }
    }

    private Site translate(ClassNode host, MethodNode mn, InvokeDynamicInsnNode indy, String genName, int line) {
        Type samType = (Type) indy.bsmArgs[0];
        Handle impl = (Handle) indy.bsmArgs[1];
        Type instantiated = (Type) indy.bsmArgs[2];
        List<String> interfaces = new ArrayList<>(List.of(Type.getReturnType(indy.desc).getInternalName()));
        Map<String, Type> samMethods = new LinkedHashMap<>();
        samMethods.put(samType.getDescriptor(), samType);
        if ("altMetafactory".equals(indy.bsm.getName())) {
            readAltArguments(indy.bsmArgs, interfaces, samMethods);
        }
        int tag = impl.getTag();
        if (tag != Opcodes.H_INVOKESTATIC && tag != Opcodes.H_INVOKEVIRTUAL && tag != Opcodes.H_INVOKEINTERFACE
                && tag != Opcodes.H_INVOKESPECIAL && tag != Opcodes.H_NEWINVOKESPECIAL) {
            throw new UnsupportedOperationException("handle kind " + tag);
        }
        if ((tag == Opcodes.H_INVOKEVIRTUAL || tag == Opcodes.H_INVOKEINTERFACE) && isProtectedElsewhere(host, impl)) {
            throw new UnsupportedOperationException("protected method of another package");
        }
        boolean instance = tag == Opcodes.H_INVOKEVIRTUAL || tag == Opcodes.H_INVOKEINTERFACE || tag == Opcodes.H_INVOKESPECIAL;
        List<Type> implParams = new ArrayList<>();
        if (instance) {
            implParams.add(Type.getObjectType(tag == Opcodes.H_INVOKESPECIAL ? host.name : impl.getOwner()));
        }
        implParams.addAll(List.of(Type.getArgumentTypes(impl.getDesc())));
        Type implReturn = tag == Opcodes.H_NEWINVOKESPECIAL ? Type.getObjectType(impl.getOwner()) : Type.getReturnType(impl.getDesc());
        Type[] captured = Type.getArgumentTypes(indy.desc);
        for (Type sam : samMethods.values()) {
            if (implParams.size() != captured.length + sam.getArgumentTypes().length) {
                throw new UnsupportedOperationException("arity");
            }
            if (sam.getReturnType().getSort() != Type.VOID && implReturn.getSort() == Type.VOID) {
                throw new UnsupportedOperationException("void implementation for a value");
            }
        }
        for (int i = 0; i < captured.length; i++) {
            boolean primitive = LambdaConversions.isPrimitive(captured[i]);
            if (primitive != LambdaConversions.isPrimitive(implParams.get(i)) || primitive && !captured[i].equals(implParams.get(i))) {
                throw new UnsupportedOperationException("captured argument needs a conversion");
            }
        }

        MethodNode accessor = accessor(host, impl, implParams, implReturn);
        ClassNode g = newClass(host, genName, interfaces, captured, indy.desc);
        for (Type sam : samMethods.values()) {
            g.methods.add(interfaceMethod(g, indy.name, sam, instantiated, captured, implParams, implReturn, host, accessor));
        }
        host.methods.add(accessor);
        MethodInsnNode call = new MethodInsnNode(Opcodes.INVOKESTATIC, genName, "create", indy.desc, false);
        mn.instructions.set(indy, call);
        return new Site(host, mn, indy, call, g, accessor, line);
    }

    private static void readAltArguments(Object[] args, List<String> interfaces, Map<String, Type> samMethods) {
        int flags = (Integer) args[3];
        if ((flags & FLAG_SERIALIZABLE) != 0) {
            throw new UnsupportedOperationException("serializable lambda");
        }
        if ((flags & ~(FLAG_MARKERS | FLAG_BRIDGES)) != 0) {
            throw new UnsupportedOperationException("unknown flags " + flags);
        }
        int i = 4;
        if ((flags & FLAG_MARKERS) != 0) {
            int n = (Integer) args[i++];
            for (int k = 0; k < n; k++) {
                String marker = ((Type) args[i++]).getInternalName();
                if (!interfaces.contains(marker)) {
                    interfaces.add(marker);
                }
            }
        }
        if ((flags & FLAG_BRIDGES) != 0) {
            int n = (Integer) args[i++];
            for (int k = 0; k < n; k++) {
                Type bridge = (Type) args[i++];
                samMethods.putIfAbsent(bridge.getDescriptor(), bridge);
            }
        }
    }

    /** Whether the virtual target is protected and declared outside the host's package (or unknown). */
    private boolean isProtectedElsewhere(ClassNode host, Handle impl) {
        if (packageOf(host.name).equals(packageOf(impl.getOwner()))) {
            return false;
        }
        int access = hierarchy.methodAccess(impl.getOwner(), impl.getName(), impl.getDesc());
        return access < 0 || (access & Opcodes.ACC_PROTECTED) != 0;
    }

    private static String packageOf(String internalName) {
        return internalName.substring(0, Math.max(0, internalName.lastIndexOf('/')));
    }

    /**
     * The host's accessor: takes the receiver (if any) and the arguments with the implementation's
     * own types and makes the call the method handle stands for, with the host's access rights.
     */
    private static MethodNode accessor(ClassNode host, Handle impl, List<Type> params, Type result) {
        boolean isInterface = (host.access & Opcodes.ACC_INTERFACE) != 0;
        String name = ACCESSOR_PREFIX + host.methods.size();
        for (int k = host.methods.size(); hasMethodNamed(host, name); k++) {
            name = ACCESSOR_PREFIX + k;
        }
        String desc = Type.getMethodDescriptor(result, params.toArray(new Type[0]));
        MethodNode a = new MethodNode(Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC | (isInterface ? Opcodes.ACC_PUBLIC : 0),
                name, desc, null, null);
        InsnList s = a.instructions;
        int tag = impl.getTag();
        if (tag == Opcodes.H_NEWINVOKESPECIAL) {
            s.add(new TypeInsnNode(Opcodes.NEW, impl.getOwner()));
            s.add(new InsnNode(Opcodes.DUP));
        }
        int slot = 0;
        for (int i = 0; i < params.size(); i++) {
            Type t = params.get(i);
            s.add(new VarInsnNode(t.getOpcode(Opcodes.ILOAD), slot));
            if (i == 0 && tag != Opcodes.H_INVOKESTATIC && tag != Opcodes.H_NEWINVOKESPECIAL) {
                LambdaConversions.nullCheck(s);
            }
            slot += t.getSize();
        }
        switch (tag) {
            case Opcodes.H_INVOKESTATIC:
                s.add(new MethodInsnNode(Opcodes.INVOKESTATIC, impl.getOwner(), impl.getName(), impl.getDesc(), impl.isInterface()));
                break;
            case Opcodes.H_INVOKEVIRTUAL:
                s.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, impl.getOwner(), impl.getName(), impl.getDesc(), false));
                break;
            case Opcodes.H_INVOKEINTERFACE:
                s.add(new MethodInsnNode(Opcodes.INVOKEINTERFACE, impl.getOwner(), impl.getName(), impl.getDesc(), true));
                break;
            case Opcodes.H_INVOKESPECIAL:
                s.add(new MethodInsnNode(Opcodes.INVOKESPECIAL, impl.getOwner(), impl.getName(), impl.getDesc(), impl.isInterface()));
                break;
            default:
                s.add(new MethodInsnNode(Opcodes.INVOKESPECIAL, impl.getOwner(), "<init>", impl.getDesc(), false));
                break;
        }
        s.add(new InsnNode(result.getOpcode(Opcodes.IRETURN)));
        a.maxLocals = slot;
        return a;
    }

    private static boolean hasMethodNamed(ClassNode cn, String name) {
        for (MethodNode m : cn.methods) {
            if (m.name.equals(name)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The generated class: captured values in final fields, a factory {@code create} taking them (one
     * shared instance when nothing is captured), and, added by the caller, the interface methods.
     */
    private static ClassNode newClass(ClassNode host, String genName, List<String> interfaces, Type[] captured, String factoryDesc) {
        ClassNode g = new ClassNode();
        g.version = Math.max(host.version & 0xFFFF, Opcodes.V1_8);
        g.access = Opcodes.ACC_FINAL | Opcodes.ACC_SUPER | Opcodes.ACC_SYNTHETIC;
        g.name = genName;
        g.superName = "java/lang/Object";
        g.interfaces = new ArrayList<>(interfaces);
        g.sourceFile = host.sourceFile;

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

        MethodNode factory = new MethodNode(Opcodes.ACC_STATIC, "create", factoryDesc, null, null);
        InsnList f = factory.instructions;
        if (captured.length == 0) {
            String self = "L" + genName + ";";
            g.fields.add(new FieldNode(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_FINAL, "INSTANCE", self, null, null));
            MethodNode clinit = new MethodNode(Opcodes.ACC_STATIC, "<clinit>", "()V", null, null);
            clinit.instructions.add(new TypeInsnNode(Opcodes.NEW, genName));
            clinit.instructions.add(new InsnNode(Opcodes.DUP));
            clinit.instructions.add(new MethodInsnNode(Opcodes.INVOKESPECIAL, genName, "<init>", "()V", false));
            clinit.instructions.add(new FieldInsnNode(Opcodes.PUTSTATIC, genName, "INSTANCE", self));
            clinit.instructions.add(new InsnNode(Opcodes.RETURN));
            g.methods.add(clinit);
            f.add(new FieldInsnNode(Opcodes.GETSTATIC, genName, "INSTANCE", self));
        } else {
            f.add(new TypeInsnNode(Opcodes.NEW, genName));
            f.add(new InsnNode(Opcodes.DUP));
            slot = 0;
            for (Type t : captured) {
                f.add(new VarInsnNode(t.getOpcode(Opcodes.ILOAD), slot));
                slot += t.getSize();
            }
            f.add(new MethodInsnNode(Opcodes.INVOKESPECIAL, genName, "<init>", ctorDesc.toString(), false));
        }
        f.add(new InsnNode(Opcodes.ARETURN));
        g.methods.add(factory);
        return g;
    }

    /** One implementation of the interface method: load captures, adapt arguments, call the accessor, adapt the result. */
    private static MethodNode interfaceMethod(ClassNode g, String name, Type sam, Type instantiated, Type[] captured,
            List<Type> implParams, Type implReturn, ClassNode host, MethodNode accessor) {
        MethodNode m = new MethodNode(Opcodes.ACC_PUBLIC, name, sam.getDescriptor(), null, null);
        InsnList s = m.instructions;
        for (int i = 0; i < captured.length; i++) {
            s.add(new VarInsnNode(Opcodes.ALOAD, 0));
            s.add(new FieldInsnNode(Opcodes.GETFIELD, g.name, "arg$" + i, captured[i].getDescriptor()));
        }
        Type[] samArgs = sam.getArgumentTypes();
        Type[] instArgs = instantiated.getArgumentTypes();
        int slot = 1;
        for (int i = 0; i < samArgs.length; i++) {
            s.add(new VarInsnNode(samArgs[i].getOpcode(Opcodes.ILOAD), slot));
            slot += samArgs[i].getSize();
            Type functional = i < instArgs.length ? instArgs[i] : samArgs[i];
            LambdaConversions.convert(s, samArgs[i], implParams.get(captured.length + i), functional);
        }
        s.add(new MethodInsnNode(Opcodes.INVOKESTATIC, host.name, accessor.name, accessor.desc,
                (host.access & Opcodes.ACC_INTERFACE) != 0));
        Type samReturn = sam.getReturnType();
        if (samReturn.getSort() == Type.VOID) {
            if (implReturn.getSize() == 2) {
                s.add(new InsnNode(Opcodes.POP2));
            } else if (implReturn.getSize() == 1) {
                s.add(new InsnNode(Opcodes.POP));
            }
        } else {
            LambdaConversions.convert(s, implReturn, samReturn, samReturn);
        }
        s.add(new InsnNode(samReturn.getOpcode(Opcodes.IRETURN)));
        m.maxLocals = slot;
        return m;
    }
}
