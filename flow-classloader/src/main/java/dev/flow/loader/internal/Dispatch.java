package dev.flow.loader.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Calls from instrumented code through an out-of-scope method ({@code Iterator.next}, {@code
 * Callable.call}, {@code InputStream.read}, ...) that an in-scope class overrides with a suspendable
 * body.
 *
 * <p>Such an override is split into a pinning wrapper under its own name (for uninstrumented
 * callers) and the suspendable body {@code name$flow}. For each such name and descriptor, the loader
 * defines a marker interface declaring the body, implemented by every in-scope class with a public
 * body of that name and descriptor. Each call site of that name and descriptor in instrumented code
 * tests its receiver: a marker implementation is called through the body (and may suspend), anything
 * else through the original call. In-scope interfaces extend the marker too (their default methods
 * can be the target). Classes load lazily, so the choice is made per call site from the
 * name and descriptor, not from the receiver's class. Built and used under the instrumenter's
 * construction only.
 */
final class Dispatch {

    /** The package of the generated marker interfaces. */
    static final String PACKAGE = "dev/flow/generated/dispatch/";

    /** A marker interface: its internal name and the classes that implement it directly. */
    static final class Marker {
        final String name;
        final List<String> implementers = new ArrayList<>();

        Marker(String name) {
            this.name = name;
        }
    }

    private final Hierarchy hierarchy;
    private final Map<String, Marker> byNameDesc = new HashMap<>();

    Dispatch(Hierarchy hierarchy) {
        this.hierarchy = hierarchy;
    }

    /** Whether a call can reach an override through a virtual or interface dispatch. */
    static boolean isVirtual(MethodInsnNode c) {
        return (c.getOpcode() == Opcodes.INVOKEVIRTUAL || c.getOpcode() == Opcodes.INVOKEINTERFACE)
                && !c.owner.startsWith("[");
    }

    /** The deterministic internal name of the marker for {@code name+desc}. */
    static String markerName(String name, String desc) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest((name + desc).getBytes(StandardCharsets.UTF_8));
            StringBuilder b = new StringBuilder(PACKAGE).append(name.replace('$', '_')).append('$');
            for (int i = 0; i < 8; i++) {
                b.append(Character.forDigit((h[i] >> 4) & 0xf, 16)).append(Character.forDigit(h[i] & 0xf, 16));
            }
            return b.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JDK", e);
        }
    }

    /**
     * Creates one marker per name and descriptor of {@code splitMethods} ({owner, name, desc}),
     * makes every in-scope class or interface with a public body of it implement it, and
     * returns the markers' class nodes (their body methods are still to be marked for the engine).
     */
    List<ClassNode> createMarkers(Map<String, ClassNode> nodes, Collection<String[]> splitMethods, String suffix) {
        List<ClassNode> out = new ArrayList<>();
        for (String[] m : splitMethods) {
            ClassNode owner = nodes.get(m[0]);
            MethodNode body = Hierarchy.declared(owner, m[1], m[2]);
            if (body == null || (body.access & Opcodes.ACC_PUBLIC) == 0) {
                continue;
            }
            String nameDesc = m[1] + m[2];
            Marker marker = byNameDesc.get(nameDesc);
            if (marker == null) {
                marker = new Marker(markerName(m[1], m[2]));
                byNameDesc.put(nameDesc, marker);
                ClassNode cn = new ClassNode();
                cn.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_INTERFACE | Opcodes.ACC_ABSTRACT | Opcodes.ACC_SYNTHETIC,
                        marker.name, null, "java/lang/Object", null);
                cn.methods.add(new MethodNode(Opcodes.ACC_PUBLIC | Opcodes.ACC_ABSTRACT, m[1] + suffix, m[2], null, null));
                out.add(cn);
            }
            marker.implementers.add(owner.name);
            if (!owner.interfaces.contains(marker.name)) {
                owner.interfaces.add(marker.name);
            }
        }
        return out;
    }

    /**
     * The marker a virtual call whose declaration is out of scope must test its receiver against, or
     * {@code null} if no in-scope body can be the target.
     */
    Marker markerFor(MethodInsnNode c) {
        if (!isVirtual(c)) {
            return null;
        }
        Marker m = byNameDesc.get(c.name + c.desc);
        if (m == null) {
            return null;
        }
        for (String impl : m.implementers) {
            if (hierarchy.isSubtype(impl, c.owner)) {
                return m;
            }
        }
        return null;
    }

    /**
     * Puts the receiver test in front of {@code c}: a marker implementation is called through its
     * body, anything else falls through to {@code c}. Returns the first instruction and the label
     * after both calls.
     */
    static AbstractInsnNode[] emit(MethodNode mn, MethodInsnNode c, Marker marker, String suffix) {
        Type[] args = Type.getArgumentTypes(c.desc);
        int[] slots = new int[args.length];
        for (int i = 0; i < args.length; i++) {
            slots[i] = mn.maxLocals;
            mn.maxLocals += args[i].getSize();
        }
        InsnList test = new InsnList();
        for (int i = args.length - 1; i >= 0; i--) {
            test.add(new VarInsnNode(args[i].getOpcode(Opcodes.ISTORE), slots[i]));
        }
        LabelNode original = new LabelNode();
        LabelNode end = new LabelNode();
        test.add(new InsnNode(Opcodes.DUP));
        test.add(new TypeInsnNode(Opcodes.INSTANCEOF, marker.name));
        test.add(new JumpInsnNode(Opcodes.IFEQ, original));
        test.add(new TypeInsnNode(Opcodes.CHECKCAST, marker.name));
        loadArgs(test, args, slots);
        test.add(new MethodInsnNode(Opcodes.INVOKEINTERFACE, marker.name, c.name + suffix, c.desc, true));
        test.add(new JumpInsnNode(Opcodes.GOTO, end));
        test.add(original);
        loadArgs(test, args, slots);
        AbstractInsnNode first = test.getFirst();
        mn.instructions.insertBefore(c, test);
        mn.instructions.insert(c, end);
        return new AbstractInsnNode[] {first, end};
    }

    private static void loadArgs(InsnList s, Type[] args, int[] slots) {
        for (int i = 0; i < args.length; i++) {
            s.add(new VarInsnNode(args[i].getOpcode(Opcodes.ILOAD), slots[i]));
        }
    }
}
