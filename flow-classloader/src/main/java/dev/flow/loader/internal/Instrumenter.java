package dev.flow.loader.internal;

import dev.flow.internal.HandOvers;
import dev.flow.internal.Pins;
import dev.flow.loader.InstrumentationException;
import dev.flow.spi.SuspensionPoint;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodTooLargeException;
import org.objectweb.asm.ClassTooLargeException;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.AnnotationNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * The analysis and rewriting pass over the whole included scope.
 *
 * <ol>
 *   <li>reads every class of the included packages;
 *   <li>desugars lambdas and method references ({@link LambdaDesugarer}); after the inference,
 *       the sites whose body cannot suspend get their {@code invokedynamic} back;
 *   <li>infers the suspendable methods: those containing a suspension point or calling a
 *       suspendable method, closed over overriding;
 *   <li>rewrites suspension points into calls to {@code Awaits}, splits methods that uninstrumented
 *       code may call back (overrides of out-of-scope methods) into a pinning wrapper and a
 *       suspendable body, routes in-scope calls through out-of-scope methods to those bodies when
 *       the receiver is in scope ({@link Dispatch}), brackets calls that cannot be captured with
 *       pins, initialises the class of each {@code new} at its original place ({@link dev.flow.internal.ClassInit}),
 *       adds the flow entry point, and marks suspendable methods {@code @continuable} for the engine.
 * </ol>
 *
 * <p>The analysis runs once, under the class loader's initialisation; each class is then rewritten
 * the first time it is asked for. Thread-safe: the queries that may rewrite are serialised.
 */
public final class Instrumenter {

    private final ClassLoader parent;
    private final boolean strict;
    private final Map<String, List<SuspensionPoint>> pointsByName = new HashMap<>();
    /** The constructor points, applied before the analysis ({@link ConstructorReplacements}). */
    private final List<SuspensionPoint> constructors = new ArrayList<>();
    /** The static substitutes, applied before the analysis ({@link StaticSubstitutes}). */
    private final List<SuspensionPoint> staticSubstitutes = new ArrayList<>();
    private final Map<String, ClassNode> nodes = new LinkedHashMap<>();
    private final Map<String, byte[]> originals = new HashMap<>();
    private final Set<String> generated = new HashSet<>();
    /** In-scope classes rewritten by {@link Substitutes}: always defined from the rewritten node. */
    private final Set<String> substituted = new HashSet<>();
    private final Hierarchy hierarchy;
    private final Set<String> suspendable = new HashSet<>();
    private final Set<String> split = new HashSet<>();
    private final Map<String, byte[]> prepared = new HashMap<>();
    /** In-scope classes not rewritten yet: each is rewritten when first asked for ({@link #rewrite}). */
    private final Set<String> toRewrite = new HashSet<>();
    /** In-scope classes rewritten and changed whose prepared class file is not written yet. */
    private final Set<String> unwritten = new HashSet<>();
    /** Classes rewritten but not {@linkplain #finish finished}. */
    private final Set<String> unfinished = new HashSet<>();
    /** The engine's views ({@link #resolverView}) of the {@link #unwritten} classes, written once each. */
    private final Map<String, byte[]> views = new HashMap<>();
    private final Set<String> continuableClasses = new HashSet<>();
    private final Map<String, MonitorDepth> monitorCache = new HashMap<>();
    /** name+desc of suspendable methods to the in-scope classes declaring them. */
    private final Map<String, Set<String>> suspendableByNameDesc = new HashMap<>();
    private final Dispatch dispatch;
    private final List<LambdaDesugarer.Site> lambdaSites = new ArrayList<>();
    /** Desugared lambda sites by the internal name of their generated class. */
    private final Map<String, LambdaDesugarer.Site> lambdaByClass = new HashMap<>();
    /** Private and static targets of serializable lambdas, pinned under their own names, to the line of their first site. */
    private final Map<String, Integer> pinnedInPlace = new HashMap<>();
    /** Classes a strict loader refuses when they load, with the refusal. */
    private final Map<String, Refusal> refusals = new HashMap<>();
    /** Pin sites of methods left as compiled, by class, reported when the class is first prepared for loading. */
    private final Map<String, List<Integer>> unreported = new HashMap<>();
    /**
     * Methods as they were before this pass rewrote them, for those large enough that the rewrite may
     * take them past 64 KB; a method under {@value #SNAPSHOT_SIZE} instructions cannot grow that much
     * (each instruction grows by at most a few dozen bytes).
     */
    private final Map<MethodNode, MethodNode> beforeRewrite = new HashMap<>();
    private static final int SNAPSHOT_SIZE = 2000;
    private final Set<MethodNode> leftAsCompiled = new HashSet<>();

    /**
     * Analyses and rewrites the classes named.
     *
     * @param classNames internal names of the in-scope classes
     */
    public Instrumenter(ClassLoader parent, Collection<String> classNames, Collection<SuspensionPoint> points, boolean strict) {
        this.parent = parent;
        this.strict = strict;
        List<SuspensionPoint> calls = new ArrayList<>();
        List<SuspensionPoint> replacements = new ArrayList<>();
        for (SuspensionPoint p : points) {
            if (p.isConstructor()) {
                constructors.add(p);
                String owner = p.replacementOwner();
                String name = p.replacementName();
                String desc = p.replacementDescriptor();
                SuspensionPoint call = SuspensionPoint.replaceWithStatic(owner, name, desc, owner, name, desc);
                replacements.add(call);
                if (p.kind() == SuspensionPoint.Kind.CONSTRUCTOR) {
                    calls.add(call); // after ConstructorReplacements, the replacement's call is the suspension point
                }
            } else if (p.kind() == SuspensionPoint.Kind.STATIC_SUBSTITUTE
                    || p.kind() == SuspensionPoint.Kind.FINAL_SUBSTITUTE) {
                staticSubstitutes.add(p);
                replacements.add(SuspensionPoint.replaceWithStatic(p.owner(), p.name(), p.descriptor(),
                        p.replacementOwner(), p.replacementName(), p.replacementDescriptor()));
            } else {
                calls.add(p);
                replacements.add(p);
            }
        }
        for (SuspensionPoint p : calls) {
            pointsByName.computeIfAbsent(p.name(), k -> new ArrayList<>()).add(p);
        }
        for (String name : classNames) {
            byte[] bytes = Hierarchy.readBytes(parent, name);
            if (bytes == null) {
                continue;
            }
            ClassNode cn = new ClassNode();
            try {
                new ClassReader(bytes).accept(cn, ClassReader.SKIP_FRAMES);
            } catch (RuntimeException e) {
                throw new InstrumentationException(name.replace('/', '.'), "", "", "unreadable class file: " + e, e);
            }
            nodes.put(name, cn);
            originals.put(name, bytes);
        }
        substitute();
        this.hierarchy = new Hierarchy(parent, nodes);
        substituteStatics();
        this.dispatch = new Dispatch(hierarchy);
        refuseOwnContinuations();
        checkReplacements(replacements);
        desugarLambdas();
        hierarchy.freeze();
        infer();
        hierarchy.thaw();
        revertLambdasThatCannotSuspend();
        hierarchy.freeze();
        pinSerializableTargets();
        hierarchy.thaw();
        createMarkers();
        hierarchy.settle();
        toRewrite.addAll(nodes.keySet());
        prepareCopies();
    }

    /**
     * Replaces the allocations of the constructor points ({@link ConstructorReplacements}), puts Flow's
     * suspendable versions of JDK classes in place ({@link Substitutes}) and, if loaded code now names them,
     * adds them to the scope.
     */
    private void substitute() {
        boolean namesSubstitutes = false;
        for (ClassNode cn : nodes.values()) {
            boolean replaced = !Substitutes.isSubstitute(cn.name) && ConstructorReplacements.apply(cn, constructors);
            boolean substitutedHere = Substitutes.apply(cn, n -> {
                ClassNode c = nodes.get(n);
                return c == null ? null : c.superName;
            });
            if (replaced || substitutedHere) {
                substituted.add(cn.name);
            }
            namesSubstitutes |= substitutedHere;
        }
        if (!namesSubstitutes) {
            return;
        }
        for (Map.Entry<String, byte[]> e : Substitutes.read(parent).entrySet()) {
            if (!nodes.containsKey(e.getKey())) {
                ClassNode cn = new ClassNode();
                new ClassReader(e.getValue()).accept(cn, ClassReader.SKIP_FRAMES);
                // Without local names, a NullPointerException's message names parameters and locals
                // as the JDK's own classes do ("<parameter1>"), not by their names in Flow's source.
                for (MethodNode m : cn.methods) {
                    m.localVariables = null;
                }
                nodes.put(e.getKey(), cn);
                originals.put(e.getKey(), e.getValue());
                substituted.add(e.getKey());
            }
        }
    }

    /**
     * Applies the static and final substitutes ({@link StaticSubstitutes}) to the in-scope classes but Flow's own
     * copies; refuses a final substitute whose method is not final (a subclass could override it).
     */
    private void substituteStatics() {
        if (staticSubstitutes.isEmpty()) {
            return;
        }
        for (SuspensionPoint p : staticSubstitutes) {
            if (p.kind() != SuspensionPoint.Kind.FINAL_SUBSTITUTE) {
                continue;
            }
            Hierarchy.TypeInfo info = hierarchy.info(p.owner());
            Integer access = info == null ? null : info.access(p.name() + p.descriptor());
            if (access == null || (access & (Opcodes.ACC_FINAL | Opcodes.ACC_STATIC)) != Opcodes.ACC_FINAL) {
                throw new InstrumentationException(p.owner().replace('/', '.'), p.name(), p.descriptor(),
                        (access == null ? "no such method" : "not a final instance method")
                                + " for the final substitute " + p + " (expected: a final instance method)");
            }
        }
        for (ClassNode cn : nodes.values()) {
            if (!Substitutes.isSubstitute(cn.name) && StaticSubstitutes.apply(cn, staticSubstitutes, hierarchy)) {
                substituted.add(cn.name);
            }
        }
    }

    /** Lists the in-scope classes of the given packages. */
    public static Set<String> scan(ClassLoader parent, Collection<String> packages, Collection<String> excludes) {
        List<String> paths = new ArrayList<>();
        for (String p : packages) {
            paths.add(p.replace('.', '/'));
        }
        Set<String> out = Scanner.classesUnder(parent, paths);
        out.removeIf(n -> {
            String dotted = n.replace('/', '.');
            for (String e : excludes) {
                if (dotted.startsWith(e + ".")) {
                    return true;
                }
            }
            return false;
        });
        return out;
    }

    /** Whether this loader defines {@code internalName} itself. */
    public boolean defines(String internalName) {
        return nodes.containsKey(internalName) || Names.COPIED.contains(internalName);
    }

    /** Internal names of the classes of the scope, generated and substituted ones included, but not Flow's copies. */
    public synchronized Set<String> definedClasses() {
        return Set.copyOf(nodes.keySet());
    }

    /** Internal names of the classes this pass created (desugared lambdas, dispatch markers). */
    public Set<String> generatedClasses() {
        return Set.copyOf(generated);
    }

    /** Internal names of Flow's suspendable JDK substitutes this scope defines its own copy of. */
    public Set<String> substituteClasses() {
        Set<String> out = new java.util.TreeSet<>();
        for (String n : substituted) {
            if (Substitutes.isSubstitute(n)) {
                out.add(n);
            }
        }
        return out;
    }

    /** Whether {@code internalName} has methods the engine must instrument. */
    public synchronized boolean needsEngine(String internalName) {
        rewrite(internalName);
        return continuableClasses.contains(internalName);
    }

    /**
     * The class file after this pass: rewritten and marked, ready for the engine; the original
     * if nothing had to change. A class is rewritten the first time it is asked for; the pinned sites
     * of a method left as compiled are reported then.
     *
     * @throws InstrumentationException in strict mode, for a method this pass took past 64 KB
     */
    public synchronized byte[] prepared(String internalName) {
        rewrite(internalName);
        if (unwritten.remove(internalName)) {
            writePrepared(nodes.get(internalName));
        }
        Refusal refused = refusals.get(internalName);
        if (refused != null) {
            throw new InstrumentationException(internalName.replace('/', '.'), refused.method, refused.desc, refused.reason,
                    refused.cause);
        }
        List<Integer> sites;
        synchronized (unreported) {
            sites = unreported.remove(internalName);
        }
        if (sites != null) {
            sites.forEach(Pins::report);
        }
        return bytes(internalName);
    }

    private byte[] bytes(String internalName) {
        byte[] b = prepared.get(internalName);
        return b != null ? b : originals.get(internalName);
    }

    /** Whether {@code owner.name+desc} was inferred suspendable (for tests and diagnostics). */
    public boolean isSuspendable(String owner, String name, String desc) {
        return suspendable.contains(Names.key(owner, name, desc));
    }

    /**
     * The view of a class the engine's resolver reads; {@code null} to use the parent's. The engine
     * reads other classes for their members, their marks and the calls in their bridge and accessor
     * methods, never for their stack map frames or the code of other methods: a class rewritten but not
     * loaded yet is shown without frames and without the last steps of rewriting ({@link #finish}),
     * written once, which saves that work until it is loaded. A class that does not fit without
     * falling back ({@link #writeOrLeaveAsCompiled}) is shown as it will be loaded.
     */
    public synchronized byte[] resolverView(String internalName) {
        rewrite(internalName);
        if (unwritten.contains(internalName)) {
            byte[] view = views.get(internalName);
            if (view != null) {
                return view;
            }
            ClassNode cn = nodes.get(internalName);
            if (cn.methods.stream().anyMatch(beforeRewrite::containsKey)) {
                // A method large enough to pass 64 KB: shown as it will be written, fall-back included.
                finish(cn);
            }
            try {
                view = writeUnchecked(nodes.get(internalName), 0);
                views.put(internalName, view);
                return view;
            } catch (MethodTooLargeException tooLarge) {
                unwritten.remove(internalName);
                writePrepared(nodes.get(internalName));
            }
        }
        byte[] b = bytes(internalName);
        if (b != null) {
            return b;
        }
        if (Names.FLOW_TASK.equals(internalName)) {
            return markAll(Hierarchy.readBytes(parent, internalName), m -> m.name.equals("flow$call"));
        }
        return null;
    }

    // ---------------------------------------------------------------- set-up

    /**
     * Refuses in-scope code that runs JavaFlow continuations itself. Flow runs every flow as one: a
     * continuation started or resumed inside it would take the flow's suspensions as its own, and
     * instrumented code finds the running continuation through a field of Flow's threads that only
     * Flow sets ({@code Engine.current()}).
     */
    private void refuseOwnContinuations() {
        for (ClassNode cn : nodes.values()) {
            for (MethodNode m : cn.methods) {
                for (AbstractInsnNode insn : m.instructions) {
                    String target = continuationRun(insn);
                    if (target != null) {
                        int line = lineOf(insn);
                        throw new InstrumentationException(cn.name.replace('/', '.'), m.name, m.desc, target
                                + (line > 0 ? " at line " + line : "") + ": in-scope code must not run JavaFlow"
                                + " continuations itself (Flow runs every flow as one); keep that code out of the"
                                + " loader's packages");
                    }
                }
            }
        }
    }

    /**
     * What {@code insn} does that runs a JavaFlow continuation ("calls ...", or "refers to ..." for
     * a method reference), or {@code null}.
     */
    private static String continuationRun(AbstractInsnNode insn) {
        if (insn instanceof MethodInsnNode) {
            MethodInsnNode call = (MethodInsnNode) insn;
            return runsContinuation(call.owner, call.name) ? "calls " + call.owner.replace('/', '.') + "." + call.name
                    + call.desc : null;
        }
        if (insn instanceof InvokeDynamicInsnNode) {
            for (Object arg : ((InvokeDynamicInsnNode) insn).bsmArgs) {
                if (arg instanceof Handle && runsContinuation(((Handle) arg).getOwner(), ((Handle) arg).getName())) {
                    Handle h = (Handle) arg;
                    return "refers to " + h.getOwner().replace('/', '.') + "." + h.getName() + h.getDesc();
                }
            }
        }
        return null;
    }

    private static boolean runsContinuation(String owner, String name) {
        switch (owner) {
            case "org/apache/commons/javaflow/api/Continuation":
                return name.startsWith("startWith") || name.startsWith("continueWith") || name.equals("resume")
                        || name.equals("terminate");
            case Names.STACK_RECORDER:
                return name.equals("execute");
            default:
                return false;
        }
    }

    private void checkReplacements(Collection<SuspensionPoint> points) {
        for (SuspensionPoint p : points) {
            if (p.kind() != SuspensionPoint.Kind.STATIC) {
                continue;
            }
            String owner = p.replacementOwner();
            if (!Names.COPIED.contains(owner) && !nodes.containsKey(owner)) {
                throw new InstrumentationException(owner.replace('/', '.'), p.replacementName(), p.replacementDescriptor(),
                        "replacement for suspension point " + p.owner() + "." + p.name() + p.descriptor()
                                + " is neither Flow's nor in an included package");
            }
            byte[] bytes = Names.COPIED.contains(owner) ? Hierarchy.readBytes(parent, owner) : originals.get(owner);
            ClassNode cn = new ClassNode();
            new ClassReader(bytes).accept(cn, ClassReader.SKIP_CODE);
            boolean found = false;
            for (MethodNode m : cn.methods) {
                if (m.name.equals(p.replacementName()) && m.desc.equals(p.replacementDescriptor())
                        && (m.access & Opcodes.ACC_STATIC) != 0) {
                    found = true;
                }
            }
            if (!found) {
                throw new InstrumentationException(owner.replace('/', '.'), p.replacementName(), p.replacementDescriptor(),
                        "no such static method for suspension point " + p.owner() + "." + p.name() + p.descriptor());
            }
        }
    }

    private void desugarLambdas() {
        LambdaDesugarer d = new LambdaDesugarer(hierarchy, nodes);
        for (ClassNode cn : new ArrayList<>(nodes.values())) {
            for (LambdaDesugarer.Site site : d.desugar(cn)) {
                nodes.put(site.generated.name, site.generated);
                generated.add(site.generated.name);
                lambdaSites.add(site);
                lambdaByClass.put(site.generated.name, site);
            }
        }
    }

    /**
     * Puts back the {@code invokedynamic} of every desugared site whose body cannot suspend: such a
     * site gains nothing from desugaring, and its class stays byte for byte as compiled.
     */
    private void revertLambdasThatCannotSuspend() {
        for (LambdaDesugarer.Site site : lambdaSites) {
            boolean suspends = false;
            for (MethodNode m : site.interfaceMethods()) {
                suspends |= suspendable.contains(Names.key(site.generated.name, m.name, m.desc));
            }
            if (!suspends) {
                site.revert();
                nodes.remove(site.generated.name);
                generated.remove(site.generated.name);
            }
        }
    }

    /**
     * The JVM's class of a serializable lambda calls its target, and the method handle it records must
     * keep naming that target for {@code $deserializeLambda$} to accept it: a suspendable target is
     * therefore pinned under its own name, its body moved to {@code name$flow} for in-scope callers
     * (private and static targets here, others as split families).
     */
    private void pinSerializableTargets() {
        List<String> virtual = new ArrayList<>();
        for (ClassNode cn : nodes.values()) {
            for (MethodNode mn : cn.methods) {
                int line = -1;
                for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
                    if (i instanceof LineNumberNode) {
                        line = ((LineNumberNode) i).line;
                    }
                    String decl = i instanceof InvokeDynamicInsnNode ? serializableTarget((InvokeDynamicInsnNode) i) : null;
                    if (decl == null || !suspendable.contains(decl)) {
                        continue;
                    }
                    String[] p = parse(decl);
                    MethodNode m = method(p[0], p[1], p[2]);
                    if ((m.access & (Opcodes.ACC_STATIC | Opcodes.ACC_PRIVATE)) != 0) {
                        pinnedInPlace.putIfAbsent(decl, line);
                    } else {
                        virtual.add(decl);
                    }
                }
            }
        }
        splitFamilies(virtual);
    }

    /** The in-scope declaration a serializable lambda or method reference calls, or {@code null}. */
    private String serializableTarget(InvokeDynamicInsnNode indy) {
        if (!LambdaDesugarer.isLambdaSite(indy) || !"altMetafactory".equals(indy.bsm.getName())
                || !(indy.bsmArgs[3] instanceof Integer) || ((Integer) indy.bsmArgs[3] & 1) == 0) {
            return null;
        }
        Handle h = (Handle) indy.bsmArgs[1];
        return h.getTag() == Opcodes.H_NEWINVOKESPECIAL ? null : resolve(h.getOwner(), h.getName(), h.getDesc());
    }

    // ---------------------------------------------------------------- inference

    /**
     * The suspension point a call is, or {@code null}. An {@code invokespecial} ({@code super.m()})
     * is never one: a replacement would dispatch virtually, back to the override making the call
     * ({@link #superCallOfPoint}).
     */
    private SuspensionPoint matchPoint(MethodInsnNode c) {
        return c.getOpcode() == Opcodes.INVOKESPECIAL ? null : anyPoint(c);
    }

    /**
     * For {@code super.m()} of a blocking JDK method ({@code Future.get}, {@code BlockingQueue.take},
     * ...): the point it would be as a virtual call; such a call stays non-virtual and is reported
     * like a blocking call without a suspendable form. {@code null} for other calls and for {@code
     * java.io} stream points, which only a transport's own views make suspend (a {@code super.read()}
     * is a plain call).
     */
    private SuspensionPoint superCallOfPoint(MethodInsnNode c) {
        if (c.getOpcode() != Opcodes.INVOKESPECIAL || c.name.equals("<init>") || resolve(c.owner, c.name, c.desc) != null) {
            return null;
        }
        SuspensionPoint p = anyPoint(c);
        if (p == null || p.owner().equals("java/io/InputStream") || p.owner().equals("java/io/OutputStream")) {
            return null;
        }
        return p;
    }

    private SuspensionPoint anyPoint(MethodInsnNode c) {
        List<SuspensionPoint> candidates = pointsByName.get(c.name);
        if (candidates == null) {
            return null;
        }
        String args = c.desc.substring(0, c.desc.indexOf(')') + 1);
        for (SuspensionPoint p : candidates) {
            if (!p.descriptor().startsWith(args)) {
                continue;
            }
            boolean isStatic = c.getOpcode() == Opcodes.INVOKESTATIC;
            if (isStatic != (p.kind() == SuspensionPoint.Kind.STATIC && isStaticPoint(p))) {
                continue;
            }
            if (isStatic && hidden(c, p)) {
                continue;
            }
            if (hierarchy.isSubtype(c.owner, p.owner())) {
                return p;
            }
        }
        return null;
    }

    /**
     * Whether static call {@code c} runs another method than point {@code p}'s: one that a subclass of {@code p}'s
     * owner declares with the same name and descriptor ({@code SSLSocketFactory.getDefault()} hides {@code
     * SocketFactory.getDefault()}). A call through a subclass that inherits the point's method matches.
     */
    private boolean hidden(MethodInsnNode c, SuspensionPoint p) {
        String declarer = hierarchy.staticDeclarer(c.owner, c.name, c.desc);
        return declarer != null && !declarer.equals(p.owner());
    }

    /**
     * The suspension point a call is, unless it resolves to an in-scope override of an out-of-scope
     * blocking method: that body is instrumented and does its own waiting (awaiting the receiver
     * first would wait on the object the body itself implements). Calls through the out-of-scope type
     * stay suspension points, for receivers that are not in scope ({@link Dispatch} routes the others).
     */
    private SuspensionPoint pointFor(MethodInsnNode c) {
        SuspensionPoint p = matchPoint(c);
        if (p != null && !hierarchy.isInScope(p.owner()) && resolve(c.owner, c.name, c.desc) != null) {
            return null;
        }
        return p;
    }

    private static boolean isStaticPoint(SuspensionPoint p) {
        Type[] repl = Type.getArgumentTypes(p.replacementDescriptor());
        Type[] orig = Type.getArgumentTypes(p.descriptor());
        return repl.length == orig.length;
    }

    /** The in-scope declaration a call resolves to, or {@code null}. */
    private String resolve(String owner, String name, String desc) {
        if (!hierarchy.isInScope(owner)) {
            return null;
        }
        if (declares(owner, name, desc)) {
            return Names.key(owner, name, desc);
        }
        for (String t : hierarchy.supertypes(owner)) {
            if (hierarchy.isInScope(t) && declares(t, name, desc)) {
                return Names.key(t, name, desc);
            }
        }
        return null;
    }

    private boolean declares(String owner, String name, String desc) {
        return method(owner, name, desc) != null;
    }

    private MethodNode method(String owner, String name, String desc) {
        return hierarchy.declaredInScope(owner, name, desc);
    }

    /**
     * Whether a virtual call whose declaration is out of scope can reach a public suspendable
     * in-scope override: the call site then dispatches to it through a marker ({@link Dispatch}).
     */
    private boolean reachesSuspendableOverride(MethodInsnNode c) {
        Set<String> owners = suspendableByNameDesc.get(c.name + c.desc);
        if (owners == null) {
            return false;
        }
        for (String o : owners) {
            if (isSuspendableOverride(o, c)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code owner}'s declaration of the method {@code c} calls is a public override {@code c} can reach. */
    private boolean isSuspendableOverride(String owner, MethodInsnNode c) {
        MethodNode m = method(owner, c.name, c.desc);
        return m != null && (m.access & Opcodes.ACC_PUBLIC) != 0 && (m.access & Opcodes.ACC_STATIC) == 0
                && hierarchy.isSubtype(owner, c.owner);
    }

    private boolean addSuspendable(String key) {
        if (!suspendable.add(key)) {
            return false;
        }
        String[] p = parse(key);
        suspendableByNameDesc.computeIfAbsent(p[1] + p[2], k -> new HashSet<>()).add(p[0]);
        return true;
    }

    private MonitorDepth monitors(ClassNode cn, MethodNode mn) {
        return monitorCache.computeIfAbsent(Names.key(cn.name, mn.name, mn.desc), k -> MonitorDepth.of(mn));
    }

    private static boolean mayBeInstrumented(MethodNode mn) {
        return !mn.name.startsWith("<")
                && (mn.access & (Opcodes.ACC_SYNCHRONIZED | Opcodes.ACC_NATIVE | Opcodes.ACC_ABSTRACT)) == 0
                && mn.instructions.size() > 0;
    }

    /**
     * The calls of a method that make it suspendable once one of their targets is: in-scope
     * declarations (keys) and virtual calls whose declaration is out of scope.
     */
    private static final class Callees {
        final List<String> declarations = new ArrayList<>();
        final List<MethodInsnNode> virtualCalls = new ArrayList<>();

        boolean isEmpty() {
            return declarations.isEmpty() && virtualCalls.isEmpty();
        }
    }

    /**
     * The calls of {@code mn} outside monitors that can make it suspendable: a call is suspendable if
     * it is a suspension point, else if the in-scope declaration it resolves to is, else if it is
     * virtual and reaches a suspendable override; {@code null} if one is a suspension point.
     */
    private Callees callees(ClassNode cn, MethodNode mn) {
        Callees out = new Callees();
        MonitorDepth md = monitors(cn, mn);
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            if (!(i instanceof MethodInsnNode) || md.at(i) != 0) {
                continue;
            }
            MethodInsnNode c = (MethodInsnNode) i;
            if (pointFor(c) != null) {
                return null;
            }
            String decl = resolve(c.owner, c.name, c.desc);
            if (decl != null) {
                out.declarations.add(decl);
            } else if (Dispatch.isVirtual(c)) {
                out.virtualCalls.add(c);
            }
        }
        return out;
    }

    private void infer() {
        Map<String, Callees> pending = new LinkedHashMap<>();
        for (ClassNode cn : nodes.values()) {
            for (MethodNode mn : cn.methods) {
                String key = Names.key(cn.name, mn.name, mn.desc);
                if (suspendable.contains(key) || !mayBeInstrumented(mn)) {
                    continue;
                }
                Callees callees = callees(cn, mn);
                if (callees == null) {
                    addSuspendable(key);
                } else if (!callees.isEmpty()) {
                    pending.put(key, callees);
                }
            }
        }
        // A pending method becomes suspendable when a method it calls does: re-check it only then, and
        // only the calls that method can answer (the same least fixed point as re-checking every pending
        // method until nothing changes).
        Map<String, List<String>> byDeclaration = new HashMap<>();
        Map<String, List<Map.Entry<String, MethodInsnNode>>> byVirtualCall = new HashMap<>();
        for (Map.Entry<String, Callees> e : pending.entrySet()) {
            for (String decl : e.getValue().declarations) {
                byDeclaration.computeIfAbsent(decl, k -> new ArrayList<>()).add(e.getKey());
            }
            for (MethodInsnNode c : e.getValue().virtualCalls) {
                byVirtualCall.computeIfAbsent(c.name + c.desc, k -> new ArrayList<>()).add(Map.entry(e.getKey(), c));
            }
        }
        Deque<String> added = new ArrayDeque<>(suspendable);
        while (!added.isEmpty()) {
            String key = added.poll();
            String[] p = parse(key);
            for (String caller : byDeclaration.getOrDefault(key, List.of())) {
                if (addSuspendable(caller)) {
                    added.add(caller);
                }
            }
            for (Map.Entry<String, MethodInsnNode> call : byVirtualCall.getOrDefault(p[1] + p[2], List.of())) {
                if (!suspendable.contains(call.getKey()) && isSuspendableOverride(p[0], call.getValue())
                        && addSuspendable(call.getKey())) {
                    added.add(call.getKey());
                }
            }
            MethodNode m = method(p[0], p[1], p[2]);
            if (m == null || (m.access & (Opcodes.ACC_STATIC | Opcodes.ACC_PRIVATE)) != 0) {
                continue;
            }
            for (String t : hierarchy.supertypes(p[0])) {
                MethodNode sup = method(t, p[1], p[2]);
                if (sup != null && (sup.access & (Opcodes.ACC_STATIC | Opcodes.ACC_PRIVATE)) == 0
                        && (sup.access & Opcodes.ACC_SYNCHRONIZED) == 0 && addSuspendable(Names.key(t, p[1], p[2]))) {
                    added.add(Names.key(t, p[1], p[2]));
                }
            }
        }
        findSplitFamilies();
    }

    /**
     * Suspendable overrides of out-of-scope methods can be called back by uninstrumented code: they
     * are split, together with every in-scope method of the same override family.
     */
    private void findSplitFamilies() {
        List<String> seeds = new ArrayList<>();
        for (String key : suspendable) {
            String[] p = parse(key);
            MethodNode m = method(p[0], p[1], p[2]);
            if (m != null && (m.access & (Opcodes.ACC_STATIC | Opcodes.ACC_PRIVATE)) == 0
                    && hierarchy.overridesOutOfScope(p[0], p[1] + p[2])) {
                seeds.add(key);
            }
        }
        splitFamilies(seeds);
    }

    /** Adds the given methods and every in-scope method of their override families to the split ones. */
    private void splitFamilies(Collection<String> seeds) {
        Deque<String> todo = new ArrayDeque<>(seeds);
        Map<String, List<ClassNode>> declarers = todo.isEmpty() ? Map.of() : declarers();
        while (!todo.isEmpty()) {
            String key = todo.poll();
            if (!split.add(key)) {
                continue;
            }
            String[] p = parse(key);
            for (ClassNode cn : declarers.getOrDefault(p[1] + p[2], List.of())) {
                MethodNode m = method(cn.name, p[1], p[2]);
                if (m == null || (m.access & (Opcodes.ACC_STATIC | Opcodes.ACC_PRIVATE)) != 0) {
                    continue;
                }
                if (hierarchy.isSubtype(cn.name, p[0]) || hierarchy.isSubtype(p[0], cn.name)) {
                    todo.add(Names.key(cn.name, p[1], p[2]));
                }
            }
        }
    }

    /** The in-scope classes by the name+desc of the methods they declare, each list in scope order. */
    private Map<String, List<ClassNode>> declarers() {
        Map<String, List<ClassNode>> out = new HashMap<>();
        for (ClassNode cn : nodes.values()) {
            for (MethodNode m : cn.methods) {
                List<ClassNode> list = out.computeIfAbsent(m.name + m.desc, k -> new ArrayList<>());
                if (list.isEmpty() || list.get(list.size() - 1) != cn) {
                    list.add(cn);
                }
            }
        }
        return out;
    }

    /** Defines the dispatch markers of the split methods whose family reaches out of scope. */
    private void createMarkers() {
        List<String[]> methods = new ArrayList<>();
        for (String key : new java.util.TreeSet<>(split)) {
            String[] p = parse(key);
            if (hierarchy.overridesOutOfScope(p[0], p[1] + p[2])) {
                methods.add(p);
            }
        }
        for (ClassNode marker : dispatch.createMarkers(nodes, methods, Names.FLOW_SUFFIX)) {
            for (MethodNode m : marker.methods) {
                mark(m);
            }
            nodes.put(marker.name, marker);
            generated.add(marker.name);
        }
    }

    private static String[] parse(String key) {
        int dot = key.indexOf('.');
        int paren = key.indexOf('(', dot);
        return new String[] {key.substring(0, dot), key.substring(dot + 1, paren), key.substring(paren)};
    }

    // ---------------------------------------------------------------- rewriting

    /**
     * Rewrites the in-scope class {@code internalName} if it is still waiting for it. The inference is
     * complete before any class is rewritten, and rewriting one class changes only its own node in
     * ways that no other class's rewriting reads (a renamed body keeps a method of the original name,
     * added methods have names of Flow's own), so the order in which classes are asked for does not
     * change what any of them becomes.
     */
    private void rewrite(String internalName) {
        if (!toRewrite.remove(internalName)) {
            return;
        }
        ClassNode cn = nodes.get(internalName);
        boolean changed = generated.contains(cn.name) || substituted.contains(cn.name);
        for (MethodNode mn : new ArrayList<>(cn.methods)) {
            if (mn.instructions.size() >= SNAPSHOT_SIZE) {
                MethodNode copy = new MethodNode(mn.access, mn.name, mn.desc, mn.signature, null);
                mn.accept(copy);
                beforeRewrite.put(mn, copy);
            }
            changed |= rewriteMethod(cn, mn);
        }
        changed |= splitMethods(cn);
        changed |= pinInPlace(cn);
        changed |= addEntryPoint(cn);
        boolean engine = cn.methods.stream().anyMatch(Instrumenter::isMarked);
        if (engine) {
            continuableClasses.add(cn.name);
            unfinished.add(cn.name);
        }
        if (changed) {
            unwritten.add(cn.name);
        } else {
            cn.methods.forEach(beforeRewrite::remove);
        }
    }

    /**
     * The last steps of rewriting {@code cn}, inside its marked methods only: what the engine reads
     * of a class it is not instrumenting (its members, marks, and the calls of its bridges and
     * accessors to itself) does not depend on them, so a class shown to the engine but not loaded
     * ({@link #resolverView}) is spared them.
     */
    private void finish(ClassNode cn) {
        if (!unfinished.remove(cn.name)) {
            return;
        }
        for (MethodNode mn : cn.methods) {
            if (isMarked(mn)) {
                noteCaughtExceptions(mn);
                StackSpills.liftAcrossSuspensions(mn, this::engineCallSite);
                EngineCallSites.spillWhereEngineFails(mn);
            }
        }
    }

    /**
     * Writes the rewritten {@code cn} as it will be defined; a method left as compiled is no longer
     * instrumented by the engine.
     */
    private void writePrepared(ClassNode cn) {
        finish(cn);
        views.remove(cn.name);
        prepared.put(cn.name, writeOrLeaveAsCompiled(cn));
        cn.methods.forEach(beforeRewrite::remove);
        if (!cn.methods.stream().anyMatch(Instrumenter::isMarked)) {
            continuableClasses.remove(cn.name);
        }
    }

    /**
     * {@code cn} written; a method this pass took past 64 KB is left as compiled in lenient mode, each
     * of its calls that could suspend a pinned site reported when the class loads; a strict loader
     * refuses the class when it loads.
     */
    private byte[] writeOrLeaveAsCompiled(ClassNode cn) {
        for (;;) {
            try {
                return writeUnchecked(cn, ClassWriter.COMPUTE_FRAMES);
            } catch (MethodTooLargeException e) {
                MethodNode mn = Hierarchy.declared(cn, e.getMethodName(), e.getDescriptor());
                MethodNode before = mn == null ? null : beforeRewrite.remove(mn);
                String reason = "method too large after rewriting (" + e.getCodeSize() + " bytes, limit 65535)";
                String className = cn.name.replace('/', '.');
                if (mn == null || (before == null && !leftAsCompiled.contains(mn))) {
                    throw new InstrumentationException(className, unsuffixed(e.getMethodName()), e.getDescriptor(), reason, e);
                }
                if (strict || before == null) {
                    refusals.put(cn.name, new Refusal(unsuffixed(e.getMethodName()), e.getDescriptor(),
                            before == null ? "even left as compiled: " + reason : reason, e));
                    return originals.get(cn.name);
                }
                leftAsCompiled.add(mn);
                leaveAsCompiled(cn, mn, before, reason);
            } catch (ClassTooLargeException e) {
                throw new InstrumentationException(cn.name.replace('/', '.'), "", "", "class too large after rewriting", e);
            } catch (RuntimeException e) {
                throw new InstrumentationException(cn.name.replace('/', '.'), "", "", "cannot write rewritten class: " + e, e);
            }
        }
    }

    /** Why a strict loader refuses a class when it loads. */
    private static final class Refusal {
        final String method;
        final String desc;
        final String reason;
        final Throwable cause;

        Refusal(String method, String desc, String reason, Throwable cause) {
            this.method = method;
            this.desc = desc;
            this.reason = reason;
            this.cause = cause;
        }
    }

    /**
     * Puts back the code {@code mn} had before this pass, no longer marked for the engine. Each call in
     * it that would suspend when rewritten is a site that cannot be instrumented: a blocking call just
     * blocks, a call of a split method goes through its pinning wrapper, and a call of any other
     * suspendable method is pinned here.
     */
    private void leaveAsCompiled(ClassNode cn, MethodNode mn, MethodNode before, String reason) {
        mn.instructions = before.instructions;
        mn.tryCatchBlocks = before.tryCatchBlocks;
        mn.localVariables = before.localVariables;
        mn.visibleLocalVariableAnnotations = before.visibleLocalVariableAnnotations;
        mn.invisibleLocalVariableAnnotations = before.invisibleLocalVariableAnnotations;
        mn.maxLocals = before.maxLocals;
        mn.maxStack = before.maxStack;
        if (mn.invisibleAnnotations != null) {
            mn.invisibleAnnotations.removeIf(a -> Names.CONTINUABLE.equals(a.desc));
        }
        String className = cn.name.replace('/', '.');
        String method = unsuffixed(mn.name) + mn.desc;
        List<Integer> sites = new ArrayList<>();
        int slot = mn.maxLocals;
        int line = -1;
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i instanceof LineNumberNode) {
                line = ((LineNumberNode) i).line;
                continue;
            }
            if (!(i instanceof MethodInsnNode)) {
                continue;
            }
            MethodInsnNode c = (MethodInsnNode) i;
            String decl = pointFor(c) == null ? resolve(c.owner, c.name, c.desc) : null;
            boolean body = decl != null && suspendable.contains(decl) && !split.contains(decl)
                    && !pinnedInPlace.containsKey(decl);
            if (body || pointFor(c) != null || decl == null && dispatch.markerFor(c) != null) {
                int site = Pins.register(className, method, line, Pins.Reason.UNINSTRUMENTED, reason, false);
                sites.add(site);
                if (body) {
                    // A suspendable body below a frame the engine does not instrument must not suspend.
                    mn.maxLocals = slot;
                    bracket(mn, c, c, site);
                }
            }
        }
        if (sites.isEmpty()) {
            sites.add(Pins.register(className, method, firstLine(mn), Pins.Reason.UNINSTRUMENTED, reason, false));
        }
        mn.maxLocals = slot + 1;
        synchronized (unreported) {
            unreported.computeIfAbsent(cn.name, k -> new ArrayList<>()).addAll(sites);
        }
    }



    /**
     * Whether the engine may capture or restore the flow's stack at {@code c}: a call of Flow's awaits,
     * of a dispatch marker, or of a suspendable in-scope method (possibly renamed to its body).
     */
    private boolean engineCallSite(MethodInsnNode c) {
        if (Names.COPIED.contains(c.owner) || c.owner.startsWith(Dispatch.PACKAGE)) {
            return true;
        }
        String decl = resolve(c.owner, unsuffixed(c.name), c.desc);
        return decl != null && suspendable.contains(decl);
    }

    /**
     * Calls {@code Engine.caught()} at the start of every exception handler of an instrumented
     * method: an exception caught while the engine restores or captures the flow's stack (a {@code
     * StackOverflowError} on a deep stack) must not leave the engine half-way. Costs nothing unless
     * an exception is caught.
     *
     * <p>A handler that lies in its own range (javac's for a {@code synchronized} block, which
     * releases the monitor whatever is thrown on the way) would then cover the call it starts with,
     * a shape HotSpot's C1 refuses to compile ("exception handler covers itself"), leaving the
     * method interpreted until C2 takes it, if ever. Such an entry is split around the call, and the
     * call is covered by an entry of its own whose handler, after the method's code, jumps to the
     * handler's code past the call (not to the handler itself: C1 also refuses a handler reached by a
     * jump). Whatever the call throws is handled as before: the call only throws once it has emptied
     * the recorder, so the second call the handler made before did nothing.
     */
    private static void noteCaughtExceptions(MethodNode mn) {
        Map<LabelNode, LabelNode> pastCall = new HashMap<>();
        for (TryCatchBlockNode b : mn.tryCatchBlocks) {
            if (!pastCall.containsKey(b.handler)) {
                LabelNode past = new LabelNode();
                mn.instructions.insert(b.handler, past);
                mn.instructions.insert(b.handler, new MethodInsnNode(Opcodes.INVOKESTATIC, Names.ENGINE, "caught", "()V", false));
                pastCall.put(b.handler, past);
            }
        }
        Map<LabelNode, LabelNode> callFailures = new HashMap<>();
        List<TryCatchBlockNode> table = new ArrayList<>();
        for (TryCatchBlockNode b : mn.tryCatchBlocks) {
            int handler = mn.instructions.indexOf(b.handler);
            if (handler < mn.instructions.indexOf(b.start) || handler >= mn.instructions.indexOf(b.end)) {
                table.add(b);
                continue;
            }
            LabelNode past = pastCall.get(b.handler);
            LabelNode callFailed = callFailures.computeIfAbsent(b.handler, h -> {
                LabelNode r = new LabelNode();
                mn.instructions.add(r);
                mn.instructions.add(new JumpInsnNode(Opcodes.GOTO, past));
                return r;
            });
            addCovering(table, b, b.start, b.handler, b.handler);
            addCovering(table, b, b.handler, past, callFailed);
            addCovering(table, b, past, b.end, b.handler);
        }
        mn.tryCatchBlocks = table;
    }

    /** Adds to {@code table} an entry like {@code b} for [start, end) to {@code handler} if that range holds code. */
    static void addCovering(List<TryCatchBlockNode> table, TryCatchBlockNode b, LabelNode start, LabelNode end,
                                    LabelNode handler) {
        for (AbstractInsnNode i = start; i != end; i = i.getNext()) {
            if (i.getOpcode() >= 0) {
                TryCatchBlockNode piece = new TryCatchBlockNode(start, end, handler, b.type);
                piece.visibleTypeAnnotations = b.visibleTypeAnnotations;
                piece.invisibleTypeAnnotations = b.invisibleTypeAnnotations;
                table.add(piece);
                return;
            }
        }
    }

    static boolean isMarked(MethodNode mn) {
        if (mn.invisibleAnnotations == null) {
            return false;
        }
        for (AnnotationNode a : mn.invisibleAnnotations) {
            if (Names.CONTINUABLE.equals(a.desc)) {
                return true;
            }
        }
        return false;
    }

    private static void mark(MethodNode mn) {
        if (!isMarked(mn)) {
            if (mn.invisibleAnnotations == null) {
                mn.invisibleAnnotations = new ArrayList<>();
            }
            mn.invisibleAnnotations.add(new AnnotationNode(Names.CONTINUABLE));
        }
    }

    private boolean rewriteMethod(ClassNode cn, MethodNode mn) {
        if (mn.instructions.size() == 0) {
            if (suspendable.contains(Names.key(cn.name, mn.name, mn.desc))) {
                mark(mn);
                return true;
            }
            return false;
        }
        boolean changed = false;
        MonitorDepth md = monitors(cn, mn);
        Pins.Reason methodReason = mn.name.equals("<init>") ? Pins.Reason.CONSTRUCTOR
                : mn.name.equals("<clinit>") ? Pins.Reason.STATIC_INITIALIZER
                : (mn.access & Opcodes.ACC_SYNCHRONIZED) != 0 ? Pins.Reason.SYNCHRONIZED_METHOD : null;
        List<Runnable> edits = new ArrayList<>();
        int line = -1;
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i instanceof LineNumberNode) {
                line = ((LineNumberNode) i).line;
                continue;
            }
            if (i instanceof InvokeDynamicInsnNode) {
                InvokeDynamicInsnNode indy = (InvokeDynamicInsnNode) i;
                String target = serializableTarget(indy);
                boolean targetPins = target != null && (pinnedInPlace.containsKey(target) || split.contains(target));
                if (needsCallbackPin(indy) && !targetPins) {
                    int siteLine = line;
                    edits.add(() -> redirectThroughPin(cn, indy, siteLine));
                }
                continue;
            }
            if (!(i instanceof MethodInsnNode)) {
                continue;
            }
            MethodInsnNode c = (MethodInsnNode) i;
            SuspensionPoint point = pointFor(c);
            String resolved = resolve(c.owner, c.name, c.desc);
            String decl = point == null ? resolved : null;
            Dispatch.Marker marker = resolved == null ? dispatch.markerFor(c) : null;
            boolean suspends = point != null || marker != null || (decl != null && suspendable.contains(decl));
            Pins.Reason reason = null;
            if (isReflective(c)) {
                reason = Pins.Reason.REFLECTION;
            } else if (suspends) {
                if (methodReason != null) {
                    reason = methodReason;
                } else if (md.at(c) > 0) {
                    reason = Pins.Reason.MONITOR;
                }
            }
            boolean renames = decl != null && (split.contains(decl) || pinnedInPlace.containsKey(decl));
            if (point == null && reason == null && !renames && marker == null) {
                SiteCalls.Kind followed = suspends ? null
                        : superCallOfPoint(c) != null ? SiteCalls.Kind.UNSUSPENDABLE : SiteCalls.match(c, hierarchy);
                if (followed != null) {
                    int siteLine = line;
                    edits.add(() -> SiteCalls.rewrite(cn.name.replace('/', '.'), mn, c, followed, siteLine, strict, hierarchy));
                }
                continue;
            }
            Pins.Reason r = reason;
            int siteLine = line;
            // A receiver that is not in scope (a JDK lock, a JDK condition) still gets the bookkeeping
            // of its call when an in-scope override (Flow's own lock, say) takes the other branch.
            SiteCalls.Kind fallback = marker != null && point == null && !renames ? SiteCalls.match(c, hierarchy) : null;
            edits.add(() -> {
                AbstractInsnNode[] test = marker != null ? Dispatch.emit(mn, c, marker, Names.FLOW_SUFFIX) : null;
                if (fallback != null) {
                    SiteCalls.rewrite(cn.name.replace('/', '.'), mn, c, fallback, siteLine, strict, hierarchy);
                }
                AbstractInsnNode[] range = point != null
                        ? rewritePoint(mn, c, point, cn.name.replace('/', '.'), mn.name + mn.desc, siteLine)
                        : new AbstractInsnNode[] {c, c};
                if (test != null) {
                    range = test;
                }
                if (renames) {
                    c.name = c.name + Names.FLOW_SUFFIX;
                }
                if (r != null) {
                    int site = Pins.register(cn.name.replace('/', '.'), mn.name + mn.desc, siteLine, r, strict);
                    bracket(mn, range[0], range[1], site);
                }
            });
        }
        for (Runnable e : edits) {
            e.run();
            changed = true;
        }
        if (suspendable.contains(Names.key(cn.name, mn.name, mn.desc))) {
            mark(mn);
            initialiseAtNew(cn, mn);
            changed = true;
        }
        return changed;
    }

    /**
     * The engine moves each {@code new T} of an instrumented method after the evaluation of the
     * constructor's arguments. Where initialising {@code T} runs code, {@code T} is initialised at
     * the original place, as the JLS says. Not for JDK classes (their initialisation is not observable
     * by the program) nor for the method's own class and its supertypes (already initialised).
     */
    private void initialiseAtNew(ClassNode cn, MethodNode mn) {
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i.getOpcode() != Opcodes.NEW) {
                continue;
            }
            String type = ((TypeInsnNode) i).desc;
            if (isJdk(type) || hierarchy.isSubtype(cn.name, type) || !hierarchy.initialisationRunsCode(type)) {
                continue;
            }
            InsnList init = new InsnList();
            init.add(new LdcInsnNode(Type.getObjectType(type)));
            init.add(new MethodInsnNode(Opcodes.INVOKESTATIC, Names.CLASS_INIT, "ensure", "(Ljava/lang/Class;)V", false));
            mn.instructions.insertBefore(i, init);
        }
    }

    private static boolean isJdk(String type) {
        return type.startsWith("java/") || type.startsWith("javax/") || type.startsWith("jdk/") || type.startsWith("sun/")
                || type.startsWith("com/sun/");
    }

    private static boolean isReflective(MethodInsnNode c) {
        switch (c.owner) {
            case "java/lang/reflect/Method":
                return c.name.equals("invoke");
            case "java/lang/reflect/Constructor":
                return c.name.equals("newInstance");
            case "java/lang/invoke/MethodHandle":
                return c.name.startsWith("invoke");
            default:
                return false;
        }
    }

    /**
     * Rewrites a suspension point; returns the first and last instruction of the new code. A strict
     * loader first calls {@code Pins.checkAwait()}, which refuses the await if the flow is pinned,
     * whether or not it would block. {@code java.io} stream points are an exception: only a
     * transport's own views suspend, so their replacements make that check for views themselves. Name
     * lookups are the other ({@link #CHECK_THEIR_OWN_PINS}): one that asks no resolver (an IP literal, an
     * address's known name) does not wait, so their replacements make the check only when they would.
     */
    private AbstractInsnNode[] rewritePoint(MethodNode mn, MethodInsnNode c, SuspensionPoint p, String className,
                                            String method, int line) {
        AbstractInsnNode[] range = rewriteCall(mn, c, p, className, method, line);
        if (!strict || p.owner().equals("java/io/InputStream") || p.owner().equals("java/io/OutputStream")
                || CHECK_THEIR_OWN_PINS.contains(p.replacementOwner() + '.' + p.replacementName())) {
            return range;
        }
        MethodInsnNode check = new MethodInsnNode(Opcodes.INVOKESTATIC, Names.PINS, "checkAwait", "()V", false);
        mn.instructions.insertBefore(range[0], check);
        return new AbstractInsnNode[] {check, range[1]};
    }

    /**
     * Replaces the call of a suspension point; returns the first and last instruction of the new call.
     * A call with a receiver keeps its original form for a null receiver ({@link
     * SiteCalls#guardNullReceiver}).
     */
    private AbstractInsnNode[] rewriteCall(MethodNode mn, MethodInsnNode c, SuspensionPoint p, String className,
                                           String method, int line) {
        InsnList insns = mn.instructions;
        InsnList repl = new InsnList();
        if (p.kind() != SuspensionPoint.Kind.STATIC) {
            String form = p.kind() == SuspensionPoint.Kind.AWAIT_RECEIVER ? "ready" : "readyInterruptibly";
            repl.add(new InsnNode(Opcodes.DUP));
            repl.add(new MethodInsnNode(Opcodes.INVOKESTATIC, Names.AWAITS, form, "(Ljava/lang/Object;)V", false));
            repl.add(new MethodInsnNode(c.getOpcode(), c.owner, c.name, c.desc, c.itf));
            return SiteCalls.guardNullReceiver(mn, c, repl);
        }
        String replacement = p.replacementDescriptor();
        if (SITED.contains(p.replacementOwner() + '.' + p.replacementName())) {
            repl.add(new LdcInsnNode(Pins.register(className, method, line, Pins.Reason.BLOCKING_CALL, strict)));
            replacement = replacement.replace(")", "I)");
        }
        repl.add(new MethodInsnNode(Opcodes.INVOKESTATIC, p.replacementOwner(), p.replacementName(), replacement, false));
        Type want = Type.getReturnType(c.desc);
        Type got = Type.getReturnType(p.replacementDescriptor());
        int handOver = c.getOpcode() == Opcodes.INVOKESTATIC ? -1 : handOverKind(c);
        if (handOver >= 0) {
            handOver(c, handOver, repl);
        } else {
            if (!want.equals(got) && want.getSort() >= Type.ARRAY) {
                repl.add(new TypeInsnNode(Opcodes.CHECKCAST,
                        want.getSort() == Type.ARRAY ? want.getDescriptor() : want.getInternalName()));
            }
            if (want.getSort() >= Type.ARRAY) {
                forgetSource(repl);
            }
        }
        if (c.getOpcode() != Opcodes.INVOKESTATIC) {
            return SiteCalls.guardNullReceiver(mn, c, repl);
        }
        AbstractInsnNode first = repl.getFirst();
        AbstractInsnNode last = repl.getLast();
        insns.insertBefore(c, repl);
        insns.remove(c);
        return new AbstractInsnNode[] {first, last};
    }

    /**
     * The built-in replacements that also take their call site (a {@link Pins.Reason#BLOCKING_CALL} site,
     * as a last {@code int}): where the receiver cannot suspend (a {@code SynchronousQueue}'s {@code put},
     * a piped stream's {@code read}), they report the blocking call there.
     */
    private static final Set<String> SITED = Set.of(Names.PRIMITIVE_AWAITS + ".put", Names.PRIMITIVE_AWAITS + ".offer",
            Names.AWAITS + ".inputRead", Names.AWAITS + ".inputReadNBytes", Names.AWAITS + ".inputSkip",
            Names.AWAITS + ".outputWrite", Names.AWAITS + ".socketConnect", Names.AWAITS + ".socketConnectTimed",
            Names.AWAITS + ".createSocket");

    /**
     * The name lookups' replacements, which call {@code Pins.checkAwait()} themselves when they ask the resolver,
     * instead of the strict loader's check before every suspension point.
     */
    private static final Set<String> CHECK_THEIR_OWN_PINS = Set.of(Names.AWAITS + ".getByName",
            Names.AWAITS + ".getAllByName", Names.AWAITS + ".getLocalHost", Names.AWAITS + ".hostName",
            Names.AWAITS + ".canonicalHostName", Names.AWAITS + ".newInetSocketAddress");

    private static final String TIMED_RESULT = "(JLjava/util/concurrent/TimeUnit;)";

    /**
     * The {@link HandOvers} kind that hands the result of {@code c}'s replacement back through {@code c}
     * itself, or -1: timed polls of queues, deques and completion services and {@code Future.get(long,
     * TimeUnit)}, whose owner is an interface or a JDK class a holder can be made of.
     */
    static int handOverKind(MethodInsnNode c) {
        if (!c.desc.startsWith(TIMED_RESULT)) {
            return -1;
        }
        String owner = c.owner.startsWith("java/util/concurrent/") ? c.owner.substring("java/util/concurrent/".length()) : "";
        switch (c.name) {
            case "poll":
                switch (owner) {
                    case "BlockingQueue":
                    case "BlockingDeque":
                    case "LinkedBlockingDeque":
                        return HandOvers.DEQUE;
                    case "LinkedBlockingQueue":
                        return HandOvers.LINKED_QUEUE;
                    case "ArrayBlockingQueue":
                        return HandOvers.ARRAY_QUEUE;
                    case "TransferQueue":
                    case "LinkedTransferQueue":
                        return HandOvers.TRANSFER_QUEUE;
                    case "CompletionService":
                    case "ExecutorCompletionService":
                        return HandOvers.COMPLETION_SERVICE;
                    default:
                        return -1;
                }
            case "pollFirst":
            case "pollLast":
                return owner.equals("BlockingDeque") || owner.equals("LinkedBlockingDeque") ? HandOvers.DEQUE : -1;
            case "get":
                return owner.equals("Future") || owner.equals("CompletableFuture") ? HandOvers.FUTURE : -1;
            default:
                return -1;
        }
    }

    /**
     * Follows the replacement's result with {@code HandOvers.of(result, kind)} and the original call
     * {@code c} on that holder with a zero timeout, which returns the result at once: loaded code gets
     * it from an instruction with the original's owner, name and descriptor, as the JVM's helpful
     * {@code NullPointerException} message names it.
     */
    private static void handOver(MethodInsnNode c, int kind, InsnList repl) {
        repl.add(new LdcInsnNode(kind));
        repl.add(new MethodInsnNode(Opcodes.INVOKESTATIC, "dev/flow/internal/HandOvers", "of",
                "(Ljava/lang/Object;I)Ljava/lang/Object;", false));
        repl.add(new TypeInsnNode(Opcodes.CHECKCAST, c.owner));
        repl.add(new InsnNode(Opcodes.LCONST_0));
        repl.add(new FieldInsnNode(Opcodes.GETSTATIC, "java/util/concurrent/TimeUnit", "NANOSECONDS",
                "Ljava/util/concurrent/TimeUnit;"));
        repl.add(new MethodInsnNode(c.getOpcode(), c.owner, c.name, c.desc, c.itf));
    }

    /**
     * Makes the reference on top of the stack come from two instructions, so that the JVM's helpful
     * {@code NullPointerException} message leaves out its "because ..." part about it rather than
     * name the replacement (a {@code dev.flow.internal} method the code never called).
     */
    private static void forgetSource(InsnList repl) {
        LabelNode kept = new LabelNode();
        repl.add(new InsnNode(Opcodes.DUP));
        repl.add(new org.objectweb.asm.tree.JumpInsnNode(Opcodes.IFNONNULL, kept));
        repl.add(new InsnNode(Opcodes.POP));
        repl.add(new InsnNode(Opcodes.ACONST_NULL));
        repl.add(kept);
    }

    /**
     * Surrounds {@code first..last} with {@code Pins.enter/exit}; an exception path (also in
     * constructors, also for the JVM's own exceptions) unpins before rethrowing.
     */
    static void bracket(MethodNode mn, AbstractInsnNode first, AbstractInsnNode last, int site) {
        int slot = mn.maxLocals;
        mn.maxLocals += 1;
        InsnList before = new InsnList();
        before.add(new LdcInsnNode(site));
        before.add(new MethodInsnNode(Opcodes.INVOKESTATIC, Names.PINS, "enter", "(I)I", false));
        before.add(new VarInsnNode(Opcodes.ISTORE, slot));
        LabelNode start = new LabelNode();
        before.add(start);
        mn.instructions.insertBefore(first, before);
        InsnList after = new InsnList();
        LabelNode end = new LabelNode();
        LabelNode done = new LabelNode();
        LabelNode handler = new LabelNode();
        after.add(end);
        after.add(new VarInsnNode(Opcodes.ILOAD, slot));
        after.add(new MethodInsnNode(Opcodes.INVOKESTATIC, Names.PINS, "exit", "(I)V", false));
        after.add(new org.objectweb.asm.tree.JumpInsnNode(Opcodes.GOTO, done));
        after.add(handler);
        after.add(new VarInsnNode(Opcodes.ILOAD, slot));
        after.add(new MethodInsnNode(Opcodes.INVOKESTATIC, Names.PINS, "exit", "(I)V", false));
        after.add(new InsnNode(Opcodes.ATHROW));
        after.add(done);
        mn.tryCatchBlocks.add(0, new TryCatchBlockNode(start, end, handler, null));
        mn.instructions.insert(last, after);
    }

    private boolean needsCallbackPin(InvokeDynamicInsnNode indy) {
        if (!"java/lang/invoke/LambdaMetafactory".equals(indy.bsm.getOwner()) || indy.bsmArgs.length < 2
                || !(indy.bsmArgs[1] instanceof Handle)) {
            return false;
        }
        Handle h = (Handle) indy.bsmArgs[1];
        if (h.getTag() == Opcodes.H_NEWINVOKESPECIAL) {
            return false;
        }
        if (pointOf(h) != null) {
            return true;
        }
        String decl = resolve(h.getOwner(), h.getName(), h.getDesc());
        return decl != null && suspendable.contains(decl);
    }

    /** The suspension point a method reference names, e.g. {@code CompletableFuture::join}, or {@code null}. */
    private SuspensionPoint pointOf(Handle h) {
        int tag = h.getTag();
        if (tag != Opcodes.H_INVOKESTATIC && tag != Opcodes.H_INVOKEVIRTUAL && tag != Opcodes.H_INVOKEINTERFACE) {
            return null;
        }
        int op = tag == Opcodes.H_INVOKESTATIC ? Opcodes.INVOKESTATIC
                : tag == Opcodes.H_INVOKEINTERFACE ? Opcodes.INVOKEINTERFACE : Opcodes.INVOKEVIRTUAL;
        return matchPoint(new MethodInsnNode(op, h.getOwner(), h.getName(), h.getDesc(), h.isInterface()));
    }

    /**
     * Pins the methods of {@code cn} in {@link #pinnedInPlace} under their own names: each body moves
     * to {@code name$flow} (where in-scope calls already point) and a pinning wrapper with the original
     * name, access and descriptor calls it; the site names the line of the first serializable lambda.
     */
    private boolean pinInPlace(ClassNode cn) {
        boolean changed = false;
        boolean isInterface = (cn.access & Opcodes.ACC_INTERFACE) != 0;
        for (MethodNode body : new ArrayList<>(cn.methods)) {
            Integer line = pinnedInPlace.get(Names.key(cn.name, body.name, body.desc));
            if (line == null) {
                continue;
            }
            changed = true;
            String name = body.name;
            boolean isStatic = (body.access & Opcodes.ACC_STATIC) != 0;
            body.name = name + Names.FLOW_SUFFIX;
            body.access |= Opcodes.ACC_SYNTHETIC;
            MethodNode w = new MethodNode(body.access, name, body.desc, body.signature,
                    body.exceptions == null ? null : body.exceptions.toArray(new String[0]));
            int site = Pins.register(cn.name.replace('/', '.'), name + body.desc, line, Pins.Reason.CALLBACK, strict);
            pinnedCall(w, site, isStatic ? 0 : 1, new MethodInsnNode(isStatic ? Opcodes.INVOKESTATIC : Opcodes.INVOKESPECIAL,
                    cn.name, body.name, body.desc, isInterface));
            cn.methods.add(w);
        }
        return changed;
    }

    /**
     * Points a lambda the JVM will call back at a wrapper that pins the flow while it runs: the sites
     * {@link LambdaDesugarer} left to the JVM. A suspension point named by the reference is rewritten
     * inside the wrapper, so a strict loader refuses it by site ({@link #rewritePoint}).
     */
    private void redirectThroughPin(ClassNode cn, InvokeDynamicInsnNode indy, int line) {
        Handle h = (Handle) indy.bsmArgs[1];
        boolean isStatic = h.getTag() == Opcodes.H_INVOKESTATIC;
        String desc = isStatic ? h.getDesc() : "(L" + h.getOwner() + ";" + h.getDesc().substring(1);
        String name = "flow$pin$" + cn.methods.size();
        MethodNode w = new MethodNode(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC, name, desc, null, null);
        int site = Pins.register(cn.name.replace('/', '.'), h.getName() + h.getDesc(), line, Pins.Reason.CALLBACK, strict);
        int op;
        switch (h.getTag()) {
            case Opcodes.H_INVOKESTATIC:
                op = Opcodes.INVOKESTATIC;
                break;
            case Opcodes.H_INVOKEINTERFACE:
                op = Opcodes.INVOKEINTERFACE;
                break;
            case Opcodes.H_INVOKESPECIAL:
                op = h.getOwner().equals(cn.name) && !isPrivate(cn, h)
                        ? (h.isInterface() ? Opcodes.INVOKEINTERFACE : Opcodes.INVOKEVIRTUAL) : Opcodes.INVOKESPECIAL;
                break;
            default:
                op = h.isInterface() ? Opcodes.INVOKEINTERFACE : Opcodes.INVOKEVIRTUAL;
        }
        MethodInsnNode call = new MethodInsnNode(op, h.getOwner(), h.getName(), h.getDesc(), h.isInterface());
        pinnedCall(w, site, 0, call);
        SuspensionPoint point = pointOf(h);
        if (point != null) {
            rewritePoint(w, call, point, cn.name.replace('/', '.'), h.getName() + h.getDesc(), line);
        }
        cn.methods.add(w);
        Object[] bsmArgs = indy.bsmArgs.clone();
        bsmArgs[1] = new Handle(Opcodes.H_INVOKESTATIC, cn.name, name, desc, (cn.access & Opcodes.ACC_INTERFACE) != 0);
        indy.bsmArgs = bsmArgs;
    }

    private static boolean isPrivate(ClassNode cn, Handle h) {
        for (MethodNode m : cn.methods) {
            if (m.name.equals(h.getName()) && m.desc.equals(h.getDesc())) {
                return (m.access & Opcodes.ACC_PRIVATE) != 0;
            }
        }
        return false;
    }

    /**
     * Fills {@code w} with: pin the flow at {@code site}; pass every parameter of {@code w} (after the
     * first {@code firstArg} slots, which are loaded as the receiver) to {@code call}; unpin on return
     * and on exception; return the call's result.
     */
    private static void pinnedCall(MethodNode w, int site, int firstArg, MethodInsnNode call) {
        Type[] args = Type.getArgumentTypes(w.desc);
        int pin = firstArg;
        for (Type t : args) {
            pin += t.getSize();
        }
        w.maxLocals = pin + 1;
        InsnList s = w.instructions;
        s.add(new LdcInsnNode(site));
        s.add(new MethodInsnNode(Opcodes.INVOKESTATIC, Names.PINS, "enter", "(I)I", false));
        s.add(new VarInsnNode(Opcodes.ISTORE, pin));
        LabelNode start = new LabelNode();
        LabelNode end = new LabelNode();
        LabelNode handler = new LabelNode();
        s.add(start);
        if (firstArg == 1) {
            s.add(new VarInsnNode(Opcodes.ALOAD, 0));
        }
        int slot = firstArg;
        for (Type t : args) {
            s.add(new VarInsnNode(t.getOpcode(Opcodes.ILOAD), slot));
            slot += t.getSize();
        }
        s.add(call);
        s.add(end);
        s.add(new VarInsnNode(Opcodes.ILOAD, pin));
        s.add(new MethodInsnNode(Opcodes.INVOKESTATIC, Names.PINS, "exit", "(I)V", false));
        s.add(new InsnNode(Type.getReturnType(w.desc).getOpcode(Opcodes.IRETURN)));
        s.add(handler);
        s.add(new VarInsnNode(Opcodes.ILOAD, pin));
        s.add(new MethodInsnNode(Opcodes.INVOKESTATIC, Names.PINS, "exit", "(I)V", false));
        s.add(new InsnNode(Opcodes.ATHROW));
        w.tryCatchBlocks.add(new TryCatchBlockNode(start, end, handler, null));
    }

    /**
     * Splits each method of a split family into {@code name$flow}, the body, and {@code name}, a
     * wrapper that pins the flow while uninstrumented callers are on the stack.
     */
    private boolean splitMethods(ClassNode cn) {
        boolean changed = false;
        boolean isInterface = (cn.access & Opcodes.ACC_INTERFACE) != 0;
        for (MethodNode mn : new ArrayList<>(cn.methods)) {
            String key = Names.key(cn.name, mn.name, mn.desc);
            if (!split.contains(key)) {
                continue;
            }
            changed = true;
            String originalName = mn.name;
            int site = registerCallback(cn, mn);
            MethodNode wrapper = new MethodNode(mn.access & ~Opcodes.ACC_ABSTRACT, originalName, mn.desc, mn.signature,
                    mn.exceptions == null ? null : mn.exceptions.toArray(new String[0]));
            wrapper.visibleAnnotations = mn.visibleAnnotations;
            wrapper.visibleParameterAnnotations = mn.visibleParameterAnnotations;
            mn.visibleAnnotations = null;
            mn.visibleParameterAnnotations = null;
            mn.name = originalName + Names.FLOW_SUFFIX;
            mn.access = (mn.access & ~Opcodes.ACC_BRIDGE) | Opcodes.ACC_SYNTHETIC;
            pinnedCall(wrapper, site, 1, new MethodInsnNode(isInterface ? Opcodes.INVOKEINTERFACE : Opcodes.INVOKEVIRTUAL,
                    cn.name, mn.name, mn.desc, isInterface));
            cn.methods.add(wrapper);
            if (!suspendable.contains(key) && mn.invisibleAnnotations != null) {
                mn.invisibleAnnotations.removeIf(a -> Names.CONTINUABLE.equals(a.desc));
            }
        }
        return changed;
    }

    /**
     * Registers the pin site of the wrapper of {@code mn}: the source method and its first line, or for
     * a desugared lambda the host class, the method the lambda names and the line of the lambda.
     */
    private int registerCallback(ClassNode cn, MethodNode mn) {
        LambdaDesugarer.Site lambda = lambdaByClass.get(cn.name);
        if (lambda != null) {
            return Pins.register(lambda.host.name.replace('/', '.'), lambda.target(), lambda.line, Pins.Reason.CALLBACK, strict);
        }
        MethodNode source = bridgeTarget(cn, mn);
        return Pins.register(cn.name.replace('/', '.'), unsuffixed(source.name) + source.desc, firstLine(source),
                Pins.Reason.CALLBACK, strict);
    }

    /**
     * The method a pin site at {@code mn} should name: {@code mn} itself, or for a compiler bridge the
     * method of the class it forwards to (possibly already renamed with the flow suffix).
     */
    private static MethodNode bridgeTarget(ClassNode cn, MethodNode mn) {
        if ((mn.access & Opcodes.ACC_BRIDGE) == 0) {
            return mn;
        }
        for (AbstractInsnNode i = mn.instructions.getLast(); i != null; i = i.getPrevious()) {
            if (i instanceof MethodInsnNode && ((MethodInsnNode) i).owner.equals(cn.name)) {
                MethodInsnNode c = (MethodInsnNode) i;
                String base = unsuffixed(c.name);
                MethodNode target = Hierarchy.declared(cn, base, c.desc);
                if (target == null) {
                    target = Hierarchy.declared(cn, base + Names.FLOW_SUFFIX, c.desc);
                }
                return target != null ? target : mn;
            }
        }
        return mn;
    }

    static String unsuffixed(String name) {
        return name.endsWith(Names.FLOW_SUFFIX) ? name.substring(0, name.length() - Names.FLOW_SUFFIX.length()) : name;
    }

    /** The source line of {@code insn}, or -1 without line numbers. */
    private static int lineOf(AbstractInsnNode insn) {
        for (AbstractInsnNode i = insn; i != null; i = i.getPrevious()) {
            if (i instanceof LineNumberNode) {
                return ((LineNumberNode) i).line;
            }
        }
        return -1;
    }

    /** The first source line of {@code mn}'s body, or -1 without line numbers. */
    static int firstLine(MethodNode mn) {
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i instanceof LineNumberNode) {
                return ((LineNumberNode) i).line;
            }
        }
        return -1;
    }

    /** Makes classes whose {@code call()} or {@code run()} can suspend into flow entry points. */
    private boolean addEntryPoint(ClassNode cn) {
        if ((cn.access & Opcodes.ACC_INTERFACE) != 0) {
            return false;
        }
        String body = null;
        String bodyDesc = null;
        if (split.contains(Names.key(cn.name, "call", "()Ljava/lang/Object;"))
                && hierarchy.isSubtype(cn.name, "java/util/concurrent/Callable")) {
            body = "call" + Names.FLOW_SUFFIX;
            bodyDesc = "()Ljava/lang/Object;";
        } else if (split.contains(Names.key(cn.name, "run", "()V")) && hierarchy.isSubtype(cn.name, "java/lang/Runnable")) {
            body = "run" + Names.FLOW_SUFFIX;
            bodyDesc = "()V";
        }
        if (body == null) {
            return false;
        }
        if (!cn.interfaces.contains(Names.FLOW_TASK)) {
            cn.interfaces.add(Names.FLOW_TASK);
            hierarchy.supertypesChanged();
        }
        MethodNode call = new MethodNode(Opcodes.ACC_PUBLIC | Opcodes.ACC_SYNTHETIC, "flow$call", "()Ljava/lang/Object;", null,
                new String[] {"java/lang/Exception"});
        call.instructions.add(new VarInsnNode(Opcodes.ALOAD, 0));
        call.instructions.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, cn.name, body, bodyDesc, false));
        if (bodyDesc.endsWith("V")) {
            call.instructions.add(new InsnNode(Opcodes.ACONST_NULL));
        }
        call.instructions.add(new InsnNode(Opcodes.ARETURN));
        mark(call);
        cn.methods.add(call);
        MethodNode root = new MethodNode(Opcodes.ACC_PUBLIC | Opcodes.ACC_SYNTHETIC, "flow$root",
                "(L" + Names.FLOW_STATE + ";)Ljava/lang/Runnable;", null, null);
        InsnList r = root.instructions;
        r.add(new FieldInsnNode(Opcodes.GETSTATIC, Names.FLOW_ROOT, "INSTANCE", "L" + Names.FLOW_ROOT + ";"));
        r.add(new InsnNode(Opcodes.ARETURN));
        cn.methods.add(root);
        return true;
    }

    private void prepareCopies() {
        for (String name : Names.COPIED) {
            prepared.put(name, markAll(Hierarchy.readBytes(parent, name), m -> !m.name.startsWith("<")));
            continuableClasses.add(name);
        }
    }

    private byte[] markAll(byte[] bytes, java.util.function.Predicate<MethodNode> which) {
        ClassNode cn = new ClassNode();
        new ClassReader(bytes).accept(cn, ClassReader.SKIP_FRAMES);
        for (MethodNode m : cn.methods) {
            if (which.test(m)) {
                mark(m);
            }
        }
        return write(cn);
    }

    byte[] write(ClassNode cn) {
        return write(cn, ClassWriter.COMPUTE_FRAMES);
    }

    /** {@code cn} written with the {@link ClassWriter} flags given; a broken class-file limit refused. */
    private byte[] write(ClassNode cn, int flags) {
        try {
            return writeUnchecked(cn, flags);
        } catch (MethodTooLargeException e) {
            throw new InstrumentationException(cn.name.replace('/', '.'), e.getMethodName(), e.getDescriptor(),
                    "method too large after rewriting (" + e.getCodeSize() + " bytes, limit 65535)", e);
        } catch (ClassTooLargeException e) {
            throw new InstrumentationException(cn.name.replace('/', '.'), "", "", "class too large after rewriting", e);
        } catch (RuntimeException e) {
            throw new InstrumentationException(cn.name.replace('/', '.'), "", "", "cannot write rewritten class: " + e, e);
        }
    }

    private byte[] writeUnchecked(ClassNode cn, int flags) {
        ClassWriter w = new ClassWriter(flags) {
            @Override
            protected String getCommonSuperClass(String a, String b) {
                return hierarchy.commonSuperClass(a, b);
            }
        };
        cn.accept(w);
        return w.toByteArray();
    }
}
