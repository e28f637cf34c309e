package dev.flow.loader.internal;

import dev.flow.internal.Pins;
import dev.flow.loader.InstrumentationException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.BasicVerifier;

/**
 * Runs the continuation engine on one prepared class and checks what it returns. A method the engine
 * cannot transform (one that grows past 64 KB, one on which the engine throws, one whose result does
 * not verify) is refused in strict mode with {@link InstrumentationException} naming the class, the
 * method, its descriptor and the reason. In lenient mode it stays as compiled: it is no longer marked
 * for the engine, and each of its suspension points (a call of a continuable method) is pinned, a
 * registered site reported once when the class is loaded; the other methods of the class are
 * instrumented as usual. Callers in other classes may still treat the method as continuable, which
 * is harmless: it never returns in the middle of a capture. Used under the class's loading lock;
 * thread-safe.
 */
public final class EngineRun {

    private static final org.slf4j.Logger LOG = dev.flow.internal.Slf4j.logger(EngineRun.class);

    private final EngineBridge engine;
    private final Instrumenter instrumenter;
    private final boolean strict;
    private final Object owner;
    /** The engine's view of classes, parsed without code, read only when a method falls back. */
    private final Map<String, ClassNode> views = new ConcurrentHashMap<>();

    /**
     * Creates a runner.
     *
     * @param owner the class loader whose classes these are; the pin sites of fall-backs are released with it
     */
    public EngineRun(EngineBridge engine, Instrumenter instrumenter, boolean strict, Object owner) {
        this.engine = engine;
        this.instrumenter = instrumenter;
        this.strict = strict;
        this.owner = owner;
    }

    /** Why the engine could not instrument a method ({@code name} empty: not known which). */
    private static final class Refusal extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final String name;
        final String desc;

        Refusal(String name, String desc, String reason, Throwable cause) {
            super(reason, cause, false, false);
            this.name = name;
            this.desc = desc;
        }
    }

    /**
     * The class file to define for {@code internalName}, instrumented by the engine.
     *
     * @throws InstrumentationException in strict mode, for a method the engine cannot instrument
     */
    public byte[] instrument(String internalName, byte[] prepared) {
        Map<String, Refusal> left = new LinkedHashMap<>();
        for (;;) {
            try {
                if (left.isEmpty()) {
                    return checked(run(prepared, null), left);
                }
                checked(run(asCompiled(internalName, prepared, left, false), internalName), left);
                return checked(run(asCompiled(internalName, prepared, left, true), internalName), left);
            } catch (Refusal r) {
                Refusal named = r.name.isEmpty() ? isolate(internalName, prepared, left, r) : r;
                if (strict || left.containsKey(named.name + named.desc)) {
                    throw refused(internalName, named, left.containsKey(named.name + named.desc) ? "still fails when left as compiled: " : "");
                }
                if (!named.name.isEmpty()) {
                    left.put(named.name + named.desc, named);
                    continue;
                }
                for (MethodNode m : marked(prepared)) {
                    left.putIfAbsent(m.name + m.desc, named);
                }
                try {
                    return checked(asCompiled(internalName, prepared, left, true), null);
                } catch (Refusal last) {
                    throw refused(internalName, last, "even left as compiled: ");
                }
            }
        }
    }

    private static InstrumentationException refused(String internalName, Refusal r, String prefix) {
        return new InstrumentationException(internalName.replace('/', '.'), Instrumenter.unsuffixed(r.name), r.desc,
                prefix + r.getMessage(), r.getCause());
    }

    /**
     * The engine's result for {@code bytes} ({@code again}: a class it has seen in another form), its huge
     * methods made smaller ({@link HugeMethodShrink}), or a refusal.
     */
    private byte[] run(byte[] bytes, String again) {
        byte[] enhanced;
        try {
            enhanced = again == null ? engine.enhance(bytes) : engine.enhanceAgain(bytes, again);
        } catch (RuntimeException e) {
            throw engineFailure(e);
        }
        try {
            return HugeMethodShrink.shrink(enhanced);
        } catch (RuntimeException e) {
            // Code of a shape the shrinking does not expect: it stays as the engine wrote it, and HugeMethods warns of it.
            LOG.debug("huge methods of a class left as the engine wrote them: {}", e.toString());
            return enhanced;
        }
    }

    /** Names the method when the engine's (relocated) ASM reports one, e.g. a method grown past 64 KB. */
    private static Refusal engineFailure(RuntimeException e) {
        if (e.getClass().getSimpleName().equals("MethodTooLargeException")) {
            try {
                String method = (String) e.getClass().getMethod("getMethodName").invoke(e);
                String desc = (String) e.getClass().getMethod("getDescriptor").invoke(e);
                int size = (Integer) e.getClass().getMethod("getCodeSize").invoke(e);
                return new Refusal(method, desc, "method too large after instrumentation (" + size + " bytes, limit 65535)", e);
            } catch (ReflectiveOperationException | RuntimeException ignored) {
                // fall through to the generic reason
            }
        }
        return new Refusal("", "", "the continuation engine failed: " + e, e);
    }

    /**
     * The method that makes the engine fail with {@code failure}, found by giving the engine one marked
     * method at a time; a refusal without a method if none fails alone.
     */
    private Refusal isolate(String internalName, byte[] prepared, Map<String, Refusal> left, Refusal failure) {
        List<MethodNode> candidates = marked(prepared);
        for (MethodNode m : candidates) {
            if (left.containsKey(m.name + m.desc)) {
                continue;
            }
            Map<String, Refusal> others = new LinkedHashMap<>(left);
            for (MethodNode o : candidates) {
                if (o != m) {
                    others.putIfAbsent(o.name + o.desc, failure);
                }
            }
            try {
                checked(run(asCompiled(internalName, prepared, others, false), internalName), others);
            } catch (Refusal r) {
                return new Refusal(m.name, m.desc, r.getMessage(), r.getCause());
            }
        }
        return failure;
    }

    private static List<MethodNode> marked(byte[] prepared) {
        ClassNode cn = new ClassNode();
        new ClassReader(prepared).accept(cn, ClassReader.SKIP_CODE);
        List<MethodNode> out = new ArrayList<>();
        for (MethodNode m : cn.methods) {
            if (Instrumenter.isMarked(m)) {
                out.add(m);
            }
        }
        return out;
    }

    /**
     * {@code prepared} with the methods of {@code left} no longer marked for the engine and each call of
     * a continuable method in them pinned; with {@code register}, as sites reported now, else as
     * placeholders for a trial run of the engine.
     */
    private byte[] asCompiled(String internalName, byte[] prepared, Map<String, Refusal> left, boolean register) {
        ClassNode cn = new ClassNode();
        new ClassReader(prepared).accept(cn, ClassReader.SKIP_FRAMES);
        try (Pins.Group sites = register ? Pins.openGroup(owner) : null) {
            for (MethodNode m : cn.methods) {
                Refusal why = left.get(m.name + m.desc);
                if (why != null) {
                    m.invisibleAnnotations.removeIf(a -> Names.CONTINUABLE.equals(a.desc));
                    pinSites(cn, m, why, register);
                }
            }
        }
        return instrumenter.write(cn);
    }

    private void pinSites(ClassNode cn, MethodNode m, Refusal why, boolean register) {
        int line = -1;
        List<MethodInsnNode> calls = new ArrayList<>();
        List<Integer> lines = new ArrayList<>();
        for (AbstractInsnNode i = m.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i instanceof LineNumberNode) {
                line = ((LineNumberNode) i).line;
            } else if (i instanceof MethodInsnNode && continuable((MethodInsnNode) i)) {
                calls.add((MethodInsnNode) i);
                lines.add(line);
            }
        }
        if (calls.isEmpty() && register) {
            // Nothing in it can suspend any more; the fall-back is reported all the same.
            Pins.report(Pins.register(cn.name.replace('/', '.'), Instrumenter.unsuffixed(m.name) + m.desc, Instrumenter.firstLine(m),
                    Pins.Reason.UNINSTRUMENTED, why.getMessage(), false));
        }
        int slot = m.maxLocals;
        for (int k = 0; k < calls.size(); k++) {
            m.maxLocals = slot;
            int site = 0;
            if (register) {
                site = Pins.register(cn.name.replace('/', '.'), Instrumenter.unsuffixed(m.name) + m.desc, lines.get(k),
                        Pins.Reason.UNINSTRUMENTED, why.getMessage(), false);
                Pins.report(site);
            }
            Instrumenter.bracket(m, calls.get(k), calls.get(k), site);
        }
        // One local for the pin state of every bracket: they follow one another, none inside another.
        m.maxLocals = slot + 1;
    }

    /** Whether the engine would treat {@code call} as a call of a continuable method. */
    private boolean continuable(MethodInsnNode call) {
        Deque<String> todo = new ArrayDeque<>(List.of(call.owner));
        Set<String> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            String type = todo.poll();
            ClassNode view = seen.add(type) ? view(type) : null;
            if (view == null) {
                continue;
            }
            MethodNode m = Hierarchy.declared(view, call.name, call.desc);
            if (m != null) {
                return Instrumenter.isMarked(m);
            }
            if (view.superName != null) {
                todo.add(view.superName);
            }
            todo.addAll(view.interfaces);
        }
        return false;
    }

    private ClassNode view(String type) {
        ClassNode cached = views.get(type);
        if (cached != null) {
            return cached;
        }
        byte[] bytes = instrumenter.resolverView(type);
        if (bytes == null) {
            return null;
        }
        ClassNode cn = new ClassNode();
        new ClassReader(bytes).accept(cn, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        views.put(type, cn);
        return cn;
    }

    /**
     * {@code enhanced} with its loops made single-entry ({@link ReducibleLoops}, which reuses the class as read
     * here), if each method the engine instrumented (one that looks up the running continuation, {@code
     * Engine.current()}) and each method of {@code left} verifies, every method if {@code left} is {@code null};
     * else a refusal naming the first that does not. The engine passes every other method through as it was
     * prepared. Loops that would not verify once made single-entry stay as the engine wrote them.
     */
    private static byte[] checked(byte[] enhanced, Map<String, Refusal> left) {
        ClassNode cn = readForVerifier(enhanced);
        byte[] out = enhanced;
        try {
            out = ReducibleLoops.apply(enhanced, cn);
        } catch (RuntimeException e) {
            LOG.debug("loops of a class left with the engine's second entries: {}", e.toString());
        }
        if (out != enhanced) {
            try {
                verify(readForVerifier(out), left);
                return out;
            } catch (Refusal r) {
                LOG.debug("loops of a class left with the engine's second entries, as made single-entry: {}", r.getMessage());
            }
        }
        verify(cn, left);
        return enhanced;
    }

    private static ClassNode readForVerifier(byte[] b) {
        ClassNode cn = new ClassNode();
        // The verifier reads neither stack map frames nor debug information.
        new ClassReader(b).accept(cn, ClassReader.SKIP_FRAMES | ClassReader.SKIP_DEBUG);
        return cn;
    }

    /** Throws a refusal naming the first method of {@code cn} that {@link #checked} checks and does not verify. */
    private static void verify(ClassNode cn, Map<String, Refusal> left) {
        for (MethodNode m : cn.methods) {
            if (left != null && !left.containsKey(m.name + m.desc) && !looksUpContinuation(m)) {
                continue;
            }
            try {
                new Analyzer<BasicValue>(new BasicVerifier()).analyze(cn.name, m);
            } catch (AnalyzerException e) {
                throw new Refusal(m.name, m.desc, "instrumented code does not verify: " + e.getMessage(), e);
            }
        }
    }

    private static boolean looksUpContinuation(MethodNode m) {
        for (AbstractInsnNode i = m.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i instanceof MethodInsnNode && ((MethodInsnNode) i).owner.equals(Names.ENGINE)
                    && ((MethodInsnNode) i).name.equals("current")) {
                return true;
            }
        }
        return false;
    }
}
