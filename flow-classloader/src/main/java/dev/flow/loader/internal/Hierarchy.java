package dev.flow.loader.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Type information for the analysis: in-scope classes from their (mutable) tree nodes, everything
 * else read once from the parent loader's class files. Thread-safe.
 */
final class Hierarchy {

    /** What the analysis needs to know of one type. */
    static class TypeInfo {
        final String name;
        final String superName;
        final List<String> interfaces;
        final boolean isInterface;
        /** name+desc of non-private, non-static methods it declares. */
        private final Set<String> virtualMethods;
        /** Access flags of every method it declares, by name+desc. */
        private final Map<String, Integer> methodAccess;

        TypeInfo(String name, String superName, List<String> interfaces, boolean isInterface, Collection<MethodNode> methods) {
            this.name = name;
            this.superName = superName;
            this.interfaces = interfaces;
            this.isInterface = isInterface;
            if (methods == null) {
                this.virtualMethods = null;
                this.methodAccess = null;
                return;
            }
            Set<String> virtual = new HashSet<>();
            Map<String, Integer> access = new HashMap<>();
            for (MethodNode m : methods) {
                if (isVirtual(m)) {
                    virtual.add(m.name + m.desc);
                }
                access.put(m.name + m.desc, m.access);
            }
            this.virtualMethods = Collections.unmodifiableSet(virtual);
            this.methodAccess = Collections.unmodifiableMap(access);
        }

        /** Whether it declares the non-private, non-static method {@code nameDesc}. */
        boolean declaresVirtual(String nameDesc) {
            return virtualMethods.contains(nameDesc);
        }

        /** The access flags of the method {@code nameDesc} it declares, or {@code null}. */
        Integer access(String nameDesc) {
            return methodAccess.get(nameDesc);
        }
    }

    /**
     * An in-scope type read from its tree node as it is when asked: the node's methods change while the
     * scope is rewritten, and building the sets of {@link TypeInfo} on every question cost more than
     * the questions.
     */
    private static final class NodeInfo extends TypeInfo {
        private final ClassNode node;

        NodeInfo(ClassNode n) {
            super(n.name, n.superName, n.interfaces, (n.access & Opcodes.ACC_INTERFACE) != 0, null);
            this.node = n;
        }

        @Override
        boolean declaresVirtual(String nameDesc) {
            for (MethodNode m : node.methods) {
                if (isVirtual(m) && nameDesc.startsWith(m.name) && nameDesc.length() == m.name.length() + m.desc.length()
                        && nameDesc.endsWith(m.desc)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        Integer access(String nameDesc) {
            Integer last = null;
            for (MethodNode m : node.methods) {
                if (nameDesc.startsWith(m.name) && nameDesc.length() == m.name.length() + m.desc.length()
                        && nameDesc.endsWith(m.desc)) {
                    last = m.access;
                }
            }
            return last;
        }
    }

    private static boolean isVirtual(MethodNode m) {
        return (m.access & (Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC)) == 0 && !m.name.startsWith("<");
    }

    private final ClassLoader parent;
    private final Map<String, ClassNode> inScope;
    private final Map<String, TypeInfo> outside = new ConcurrentHashMap<>();
    private final Map<String, Boolean> staticInit = new ConcurrentHashMap<>();
    private static final TypeInfo MISSING = new TypeInfo("?", null, List.of(), false, List.of());
    /**
     * While the in-scope nodes are not being changed ({@link #freeze}), the types and supertype lists
     * read from them, by name; {@code null} otherwise.
     */
    private Map<String, List<String>> frozenSupertypes;
    /** While frozen: the in-scope methods by owner, then name (in declaration order). */
    private Map<String, Map<String, List<MethodNode>>> frozenMethods;
    /**
     * After {@link #settle}: the supertype lists, computed once. Rewriting a class at its first load
     * changes its methods, and its interfaces only through {@link #supertypesChanged}.
     */
    private final Map<String, List<String>> settledSupertypes = new ConcurrentHashMap<>();
    private volatile boolean settled;

    Hierarchy(ClassLoader parent, Map<String, ClassNode> inScope) {
        this.parent = parent;
        this.inScope = inScope;
    }

    /**
     * Promises that the in-scope nodes (their names, supertypes and methods) do not change until {@link
     * #thaw}: until then the types and supertype lists read from them are computed once. Called by the
     * thread constructing the analysis only.
     */
    void freeze() {
        frozenSupertypes = new HashMap<>();
        frozenMethods = new HashMap<>();
    }

    /** Ends {@link #freeze}: the in-scope nodes may change again, so nothing read from them is kept. */
    void thaw() {
        frozenSupertypes = null;
        frozenMethods = null;
    }

    /**
     * Promises that from now on the in-scope nodes' names and supertypes change only with a call of {@link
     * #supertypesChanged}: supertype lists are then kept (their methods may still change).
     */
    void settle() {
        settled = true;
    }

    /** An in-scope node's supertypes changed after {@link #settle}: the kept supertype lists are dropped. */
    void supertypesChanged() {
        settledSupertypes.clear();
    }

    boolean isInScope(String internalName) {
        return inScope.containsKey(internalName);
    }

    ClassNode node(String internalName) {
        return inScope.get(internalName);
    }

    /** The method {@code name+desc} that {@code cn} declares, or {@code null} (also if {@code cn} is). */
    static MethodNode declared(ClassNode cn, String name, String desc) {
        if (cn == null) {
            return null;
        }
        for (MethodNode m : cn.methods) {
            if (m.name.equals(name) && m.desc.equals(desc)) {
                return m;
            }
        }
        return null;
    }

    /**
     * The method {@code name+desc} that the in-scope class {@code owner} declares, or {@code null}, as
     * {@link #declared}; looked up by name while frozen.
     */
    MethodNode declaredInScope(String owner, String name, String desc) {
        ClassNode cn = inScope.get(owner);
        Map<String, Map<String, List<MethodNode>>> frozen = frozenMethods;
        if (cn == null || frozen == null) {
            return declared(cn, name, desc);
        }
        Map<String, List<MethodNode>> byName = frozen.get(owner);
        if (byName == null) {
            byName = new HashMap<>();
            for (MethodNode m : cn.methods) {
                byName.computeIfAbsent(m.name, k -> new ArrayList<>(1)).add(m);
            }
            frozen.put(owner, byName);
        }
        for (MethodNode m : byName.getOrDefault(name, List.of())) {
            if (m.desc.equals(desc)) {
                return m;
            }
        }
        return null;
    }

    /** Returns the type, or {@code null} if no class file can be found for it. */
    TypeInfo info(String internalName) {
        ClassNode n = inScope.get(internalName);
        if (n != null) {
            return new NodeInfo(n);
        }
        TypeInfo t = outside.computeIfAbsent(internalName, this::readOutside);
        return t == MISSING ? null : t;
    }

    private TypeInfo readOutside(String internalName) {
        byte[] bytes = readBytes(parent, internalName);
        if (bytes == null) {
            return MISSING;
        }
        ClassNode n = new ClassNode();
        new ClassReader(bytes).accept(n, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return new TypeInfo(n.name, n.superName, n.interfaces == null ? List.of() : n.interfaces,
                (n.access & Opcodes.ACC_INTERFACE) != 0, n.methods);
    }

    static byte[] readBytes(ClassLoader loader, String internalName) {
        ClassLoader l = loader != null ? loader : ClassLoader.getSystemClassLoader();
        try (InputStream in = l.getResourceAsStream(internalName + ".class")) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            return null;
        }
    }

    /** All supertypes of {@code type} (not including itself), nearest first. */
    List<String> supertypes(String type) {
        Map<String, List<String>> frozen = frozenSupertypes;
        if (frozen == null) {
            return settled ? settledSupertypes.computeIfAbsent(type, t -> List.copyOf(walkSupertypes(t))) : walkSupertypes(type);
        }
        List<String> out = frozen.get(type);
        if (out == null) {
            out = List.copyOf(walkSupertypes(type));
            frozen.put(type, out);
        }
        return out;
    }

    private List<String> walkSupertypes(String type) {
        List<String> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        Deque<String> todo = new ArrayDeque<>();
        todo.add(type);
        while (!todo.isEmpty()) {
            TypeInfo t = info(todo.poll());
            if (t == null) {
                continue;
            }
            if (t.superName != null && seen.add(t.superName)) {
                out.add(t.superName);
                todo.add(t.superName);
            }
            for (String i : t.interfaces) {
                if (seen.add(i)) {
                    out.add(i);
                    todo.add(i);
                }
            }
        }
        return out;
    }

    /**
     * The access flags of the method {@code name+desc} that {@code owner} declares or inherits, or -1
     * if it cannot be found.
     */
    int methodAccess(String owner, String name, String desc) {
        List<String> types = new ArrayList<>();
        types.add(owner);
        types.addAll(supertypes(owner));
        for (String t : types) {
            TypeInfo info = info(t);
            Integer access = info == null ? null : info.access(name + desc);
            if (access != null) {
                return access;
            }
        }
        return -1;
    }

    /**
     * The class that declares the static method {@code name+desc} a call through {@code owner} runs: {@code owner}
     * or its nearest superclass declaring it (a subclass's static of the same name and descriptor hides its
     * superclass's); {@code null} if none can be read.
     */
    String staticDeclarer(String owner, String name, String desc) {
        for (String t = owner; t != null; ) {
            TypeInfo info = info(t);
            if (info == null) {
                return null;
            }
            Integer access = info.access(name + desc);
            if (access != null && (access & Opcodes.ACC_STATIC) != 0) {
                return t;
            }
            t = info.superName;
        }
        return null;
    }

    /** Whether {@code type} is {@code target} or a subtype of it. */
    boolean isSubtype(String type, String target) {
        if (type.equals(target)) {
            return true;
        }
        if (type.startsWith("[")) {
            return "java/lang/Object".equals(target);
        }
        return supertypes(type).contains(target);
    }

    /** Whether a type outside the scope declares the virtual method {@code nameDesc} for {@code type}. */
    boolean overridesOutOfScope(String type, String nameDesc) {
        for (String s : supertypes(type)) {
            if (!isInScope(s)) {
                TypeInfo t = info(s);
                if (t != null && t.declaresVirtual(nameDesc)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether initialising class {@code type} runs code: it or one of its superclasses has a static
     * initializer (or cannot be read, to be safe).
     */
    boolean initialisationRunsCode(String type) {
        for (String c = type; c != null; ) {
            Boolean has = staticInit.computeIfAbsent(c, this::readHasStaticInit);
            if (has == null || has) {
                return true;
            }
            TypeInfo t = info(c);
            c = t == null ? null : t.superName;
        }
        return false;
    }

    private Boolean readHasStaticInit(String type) {
        ClassNode n = inScope.get(type);
        if (n == null) {
            byte[] bytes = readBytes(parent, type);
            if (bytes == null) {
                return Boolean.TRUE;
            }
            n = new ClassNode();
            new ClassReader(bytes).accept(n, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        }
        return declared(n, "<clinit>", "()V") != null;
    }

    /** The common superclass of two types, for frame computation. */
    String commonSuperClass(String a, String b) {
        if (isSubtype(a, b)) {
            return b;
        }
        if (isSubtype(b, a)) {
            return a;
        }
        TypeInfo ta = info(a);
        TypeInfo tb = info(b);
        if (ta == null || tb == null || ta.isInterface || tb.isInterface) {
            return "java/lang/Object";
        }
        String c = a;
        while (c != null && !isSubtype(b, c)) {
            TypeInfo t = info(c);
            c = t == null ? null : t.superName;
        }
        return c == null ? "java/lang/Object" : c;
    }
}
