package dev.flow.agent;

import dev.flow.loader.InstrumentationException;
import dev.flow.loader.internal.Refusals;
import dev.flow.loader.internal.Scope;
import java.io.PrintStream;
import java.lang.instrument.ClassFileTransformer;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Gives each class of the included packages the bytes the {@code ContinuationClassLoader} would define
 * for it: one {@link Scope} per defining loader, analysed as a whole from that loader's class files
 * the first time it defines one of them (at start-up for the system loader), and the classes that
 * exist only instrumented (desugared lambdas, dispatch markers) defined in that loader by the agent.
 * With the class cache ({@link LoaderScope}), a scope the cache knows is not analysed and its classes
 * come from the cache.
 *
 * <p>A class the analysis or the engine refuses ({@link InstrumentationException}) is defined with a
 * static initializer that throws that exception, so its first use fails with the loader's message
 * (wrapped in {@link ExceptionInInitializerError}), and the refusal is printed when the class is loaded;
 * a class that cannot be instrumented is never loaded as compiled in silence.
 *
 * <p>Thread-safe: scopes are created under this transformer's lock; their bytes are computed under the
 * JVM's loading of each class.
 */
final class ScopeTransformer implements ClassFileTransformer {

    private static final String CONTINUATION_LOADER = "dev.flow.loader.ContinuationClassLoader";
    private static final String REFUSAL = "dev/flow/loader/InstrumentationException";

    private final AgentOptions options;
    private final Method defineClass;
    private final PrintStream out;
    /** Guarded by {@code this}. */
    private final Map<ClassLoader, LoaderScope> scopes = new WeakHashMap<>();
    /** Generated classes that could not be defined yet (their supertype was being loaded), by loader. Guarded by {@code this}. */
    private final Map<ClassLoader, List<String>> deferred = new WeakHashMap<>();
    private final ThreadLocal<ClassLoader> building = new ThreadLocal<>();
    private final ThreadLocal<String> defining = new ThreadLocal<>();
    private final Set<String> reported = ConcurrentHashMap.newKeySet();

    ScopeTransformer(AgentOptions options, Method defineClass, PrintStream out) {
        this.options = options;
        this.defineClass = defineClass;
        this.out = out;
    }

    /**
     * The scope of {@code loader}, made now if it was not yet (from the class cache, or analysed); {@code null}
     * while it is being made on this thread.
     */
    synchronized LoaderScope scopeOf(ClassLoader loader, ProtectionDomain domain) {
        LoaderScope s = scopes.get(loader);
        if (s != null || building.get() == loader) {
            return s;
        }
        building.set(loader);
        try {
            s = LoaderScope.of(loader, options, out);
        } finally {
            building.remove();
        }
        scopes.put(loader, s);
        if (options.anyLoader && loader != ClassLoader.getSystemClassLoader()) {
            out.println("flow-agent: " + options + ": " + s.classes().size() + " classes in scope of " + loader);
        }
        List<String> generated = new ArrayList<>(s.generated());
        // Markers first: lambda classes may implement in-scope types that implement markers.
        generated.sort((a, b) -> Boolean.compare(!a.startsWith("dev/flow/generated/"), !b.startsWith("dev/flow/generated/")));
        deferred.put(loader, generated);
        defineDeferred(loader, s, domain);
        return s;
    }

    /** The included packages (and their sub-packages) of which no scope analysed so far has a class. */
    synchronized List<String> unmatchedIncludes() {
        List<String> out = new ArrayList<>();
        for (String p : options.includes) {
            String path = p.replace('.', '/') + "/";
            if (scopes.values().stream().noneMatch(s -> s.classes().stream().anyMatch(c -> c.startsWith(path)))) {
                out.add(p);
            }
        }
        return out;
    }

    @Override
    public byte[] transform(ClassLoader loader, String name, Class<?> redefining, ProtectionDomain domain, byte[] original) {
        if (name == null || loader == null || redefining != null || name.equals(defining.get())
                || !(options.covers(name) || Scope.isCopied(name) || Scope.isSubstitute(name))
                || loader.getClass().getName().equals(CONTINUATION_LOADER)) {
            return null;
        }
        try {
            LoaderScope scope = scopeOf(loader, domain);
            if (scope == null) {
                reportLoadedWhileAnalysed(name, loader);
                return null;
            }
            synchronized (this) {
                defineDeferred(loader, scope, domain);
            }
            if (Scope.isSubstitute(name) && !scope.defines(name)) {
                return null; // the scope's code uses no substitute of this JDK class: Flow's own stays as compiled
            }
            if (!scope.defines(name)) {
                report("flow-agent: " + name.replace('/', '.') + " is in an included package but " + loader
                        + " has no class file for it: left uninstrumented");
                return null;
            }
            byte[] b = scope.bytes(name);
            if (b == null) {
                reportLoadedWhileAnalysed(name, loader);
            }
            return b;
        } catch (InstrumentationException e) {
            report("flow-agent: refused " + name.replace('/', '.') + ": " + e.getMessage());
            return refused(original, Refusals.recorded(e));
        } catch (RuntimeException | LinkageError e) {
            InstrumentationException wrapped = new InstrumentationException(name.replace('/', '.'), "", "",
                    "the agent failed: " + e, e);
            report("flow-agent: refused " + name.replace('/', '.') + ": " + wrapped.getMessage());
            return refused(original, Refusals.recorded(wrapped));
        }
    }

    /** Defines the generated classes of {@code loader} still to define; those that cannot be yet stay. Under the lock. */
    private void defineDeferred(ClassLoader loader, LoaderScope scope, ProtectionDomain domain) {
        List<String> todo = deferred.get(loader);
        if (todo == null || todo.isEmpty() || defining.get() != null) {
            // Nothing to do, or called for a supertype of the class being defined: that definition goes on.
            return;
        }
        for (String g : new ArrayList<>(todo)) {
            byte[] b = scope.bytes(g);
            if (b == null) {
                continue; // this thread analyses the scope: defined at the next class of the loader
            }
            String binary = g.replace('/', '.');
            defining.set(g);
            try {
                defineClass.invoke(loader, binary, b, 0, b.length, domain);
                todo.remove(g);
            } catch (InvocationTargetException e) {
                if (!(e.getCause() instanceof LinkageError)) {
                    throw new IllegalStateException("flow-agent: cannot define " + binary + " in " + loader, e.getCause());
                }
                if (e.getCause().getMessage() != null && e.getCause().getMessage().contains("duplicate")) {
                    todo.remove(g);
                } else {
                    report("flow-agent: " + binary + " not defined yet, retried at the next class of " + loader + ": " + e.getCause());
                }
            } catch (IllegalAccessException e) {
                throw new IllegalStateException("flow-agent: cannot define " + binary + " in " + loader, e);
            } finally {
                defining.remove();
            }
        }
    }

    private void reportLoadedWhileAnalysed(String name, ClassLoader loader) {
        report("flow-agent: " + name.replace('/', '.') + " was loaded while the scope of " + loader
                + " was being analysed: left uninstrumented");
    }

    private void report(String message) {
        if (reported.add(message)) {
            out.println(message);
        }
    }

    /**
     * {@code original} with a static initializer that throws {@code refusal} in place of its own: the
     * class is refused as the loader refuses it, at its first use, with the same message.
     */
    static byte[] refused(byte[] original, InstrumentationException refusal) {
        String method = refusal.methodName() == null ? "" : refusal.methodName();
        String desc = refusal.descriptor() == null ? "" : refusal.descriptor();
        String prefix = "cannot instrument " + refusal.className() + (method.isEmpty() ? "" : "." + method + desc) + ": ";
        String message = refusal.getMessage();
        String reason = message.startsWith(prefix) ? message.substring(prefix.length()) : message;
        ClassReader r = new ClassReader(original);
        ClassWriter w = new ClassWriter(0);
        r.accept(new ClassVisitor(Opcodes.ASM9, w) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String d, String signature, String[] exceptions) {
                return name.equals("<clinit>") ? null : super.visitMethod(access, name, d, signature, exceptions);
            }

            @Override
            public void visitEnd() {
                MethodVisitor m = super.visitMethod(Opcodes.ACC_STATIC, "<clinit>", "()V", null, null);
                m.visitCode();
                m.visitTypeInsn(Opcodes.NEW, REFUSAL);
                m.visitInsn(Opcodes.DUP);
                m.visitLdcInsn(refusal.className());
                m.visitLdcInsn(method);
                m.visitLdcInsn(desc);
                m.visitLdcInsn(reason);
                m.visitMethodInsn(Opcodes.INVOKESPECIAL, REFUSAL, "<init>",
                        "(Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;)V", false);
                m.visitInsn(Opcodes.ATHROW);
                m.visitMaxs(6, 0);
                m.visitEnd();
                super.visitEnd();
            }
        }, 0);
        return w.toByteArray();
    }
}
