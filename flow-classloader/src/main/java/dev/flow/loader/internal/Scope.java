package dev.flow.loader.internal;

import dev.flow.internal.Pins;
import dev.flow.loader.InstrumentationException;
import dev.flow.spi.SuspensionPoint;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

/**
 * The one entry point of the analysis and rewriting that every route shares (the class loader, the
 * agent, the build-time plugin): the included packages of a source of class files, analysed as a
 * whole, and the class file to define for each of their classes. What a route adds is only where the
 * bytes go.
 *
 * <p>Built once ({@link #analyse}); afterwards {@link #bytes} may be called from any thread, under the
 * class's loading lock when a loader defines it.
 */
public final class Scope {

    private static final Pattern PACKAGE = Pattern.compile("[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)*");
    private static final List<String> RUNTIME_PACKAGES = List.of(
            "dev.flow", "dev.flow.internal", "dev.flow.spi", "dev.flow.loader", "dev.flow.loader.internal", "dev.flow.mina",
            "org.apache.commons.javaflow", "org.objectweb.asm", "net.tascalate", "org.apache.mina", "org.slf4j");

    /** The annotation {@link #markedBytes} adds. */
    public static final String MARK = "Ldev/flow/internal/Instrumented;";

    private final Set<String> classes;
    private final boolean strict;
    private final Instrumenter instrumenter;
    private final EngineRun engine;
    private final Object owner;
    /** The class files as compiled. */
    private final ClassLoader source;
    /** How many class files {@link #bytes} has made. */
    private final java.util.concurrent.atomic.AtomicInteger made = new java.util.concurrent.atomic.AtomicInteger();

    private Scope(Set<String> classes, Instrumenter instrumenter, EngineRun engine, Object owner, boolean strict,
                  ClassLoader source) {
        this.classes = classes;
        this.source = source;
        this.strict = strict;
        this.instrumenter = instrumenter;
        this.engine = engine;
        this.owner = owner;
    }

    /**
     * Reads and analyses every class of {@code includes} (less {@code excludes}) that {@code source} can
     * read as a resource; each class is rewritten when it is first asked for ({@link #bytes}). The pin sites found belong to {@code owner}, released once it is unreachable.
     *
     * @param source reads the class files, in scope and out of it (their supertypes, Flow's own classes)
     * @param points the suspension points beyond the built-in ones and {@code source}'s providers
     * @param strict refuse instead of pinning
     * @param owner what the sites' lifetime follows: the loader that defines the classes
     * @throws InstrumentationException if an included class cannot be analysed
     */
    public static Scope analyse(ClassLoader source, Collection<String> includes, Collection<String> excludes,
                                Collection<SuspensionPoint> points, boolean strict, Object owner) {
        Objects.requireNonNull(source, "source");
        List<SuspensionPoint> all = new ArrayList<>(BuiltinSuspensionPoints.all(source));
        all.addAll(points);
        Set<String> classes = Instrumenter.scan(source, includes, excludes);
        Instrumenter instrumenter;
        try (Pins.Group sites = Pins.openGroup(owner)) {
            instrumenter = new Instrumenter(source, classes, all, strict);
        }
        return new Scope(Set.copyOf(classes), instrumenter,
                new EngineRun(new EngineBridge(instrumenter, source), instrumenter, strict, owner), owner, strict, source);
    }

    /**
     * Checks a package name given as {@code setting}: a Java package, not the JDK's nor Flow's own or a
     * library Flow runs on.
     *
     * @return {@code p}
     * @throws IllegalArgumentException naming the setting, the value and what was expected
     */
    public static String checkPackage(String setting, String p) {
        Objects.requireNonNull(p, setting);
        if (!PACKAGE.matcher(p).matches()) {
            throw new IllegalArgumentException(setting + ": \"" + p + "\" (expected: a package name such as com.example.protocol)");
        }
        if (p.equals("java") || p.startsWith("java.") || p.equals("javax") || p.startsWith("javax.")
                || p.equals("jdk") || p.startsWith("jdk.") || p.equals("sun") || p.startsWith("sun.")) {
            throw new IllegalArgumentException(setting + ": \"" + p + "\" (expected: not a JDK package)");
        }
        for (String r : RUNTIME_PACKAGES) {
            if (r.equals(p) || r.startsWith(p + ".") || (p.startsWith(r + ".") && !r.equals("dev.flow"))) {
                throw new IllegalArgumentException(setting + ": \"" + p + "\" (expected: not Flow's own or a library package, "
                        + r + ")");
            }
        }
        return p;
    }

    /** Internal names of the class files found in the included packages. */
    public Set<String> classes() {
        return classes;
    }

    /**
     * Internal names of the classes that exist only instrumented: desugared lambdas and dispatch markers.
     * A route defines them itself, in the loader of the scope.
     */
    public Set<String> generated() {
        return instrumenter.generatedClasses();
    }

    /**
     * Internal names of every class this scope defines but Flow's copies ({@link #copied()}): the included
     * classes, the generated ones and the substitutes. Fixed once analysed.
     */
    public Set<String> defined() {
        return instrumenter.definedClasses();
    }

    /**
     * Whether the scope defines {@code internalName}: an included class, a generated one, or one of
     * Flow's classes of which every scope defines its own instrumented copy.
     */
    public boolean defines(String internalName) {
        return instrumenter.defines(internalName);
    }

    /**
     * Flow's suspendable versions of JDK classes ({@code dev.flow.jdk}) this scope defines its own
     * instrumented copy of, because its code was rewritten to use them (internal names; empty if none
     * was). A route defines them in the loader of the scope, like {@link #copied()}.
     */
    public Set<String> substitutes() {
        return instrumenter.substituteClasses();
    }

    /** Whether {@code internalName} is one of Flow's suspendable versions of JDK classes. */
    public static boolean isSubstitute(String internalName) {
        return Substitutes.isSubstitute(internalName);
    }

    /** Flow's classes of which each scope defines its own instrumented copy (internal names). */
    public static Set<String> copied() {
        return Names.COPIED;
    }

    /** Whether {@code internalName} is one of Flow's classes of which each scope defines a copy. */
    public static boolean isCopied(String internalName) {
        return Names.COPIED.contains(internalName);
    }

    /**
     * The class file to define for {@code internalName} (a class this scope {@linkplain #defines defines}),
     * rewritten (when first asked for) and instrumented; the original if nothing had to change. The pin
     * sites its rewriting registers, and those of the classes the engine reads meanwhile, belong to the
     * owner and are released with it. A method instrumentation takes past what HotSpot compiles is logged
     * ({@link HugeMethods}).
     *
     * @throws InstrumentationException in strict mode, for a method the engine cannot instrument; in both
     *     modes, for a class whose rewritten form breaks a class-file limit
     */
    public byte[] bytes(String internalName) {
        made.incrementAndGet();
        try (Pins.Group sites = Pins.openGroup(owner)) {
            byte[] prepared = instrumenter.prepared(internalName);
            if (!instrumenter.needsEngine(internalName)) {
                return prepared;
            }
            byte[] instrumented = engine.instrument(internalName, prepared);
            HugeMethods.check(internalName, instrumented, source);
            return instrumented;
        }
    }

    /**
     * {@link #bytes}, marked {@code @dev.flow.internal.Instrumented(strict)}: for routes that define the
     * class in a loader shared with Flow's own classes (the agent, build-time instrumentation), where
     * the runtime cannot tell in-scope classes, and their mode, by their loader. Flow's copies are not
     * marked.
     */
    public byte[] markedBytes(String internalName) {
        byte[] b = bytes(internalName);
        if (Names.COPIED.contains(internalName)) {
            return b;
        }
        ClassReader r = new ClassReader(b);
        ClassWriter w = new ClassWriter(r, 0);
        r.accept(new ClassVisitor(Opcodes.ASM9, w) {
            @Override
            public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
                return MARK.equals(descriptor) ? null : super.visitAnnotation(descriptor, visible);
            }

            @Override
            public void visitEnd() {
                AnnotationVisitor a = super.visitAnnotation(MARK, true);
                a.visit("strict", strict);
                a.visitEnd();
                super.visitEnd();
            }
        }, 0);
        return w.toByteArray();
    }

    /** Whether {@code owner.name+desc} was inferred suspendable (internal names; for tests and diagnostics). */
    public boolean isSuspendable(String owner, String name, String desc) {
        return instrumenter.isSuspendable(owner, name, desc);
    }

    /** How many times {@link #bytes} has made a class file (for tests and diagnostics). */
    public int classFilesMade() {
        return made.get();
    }

    /** The analysis, for tests that check it is collected with its owner. */
    public Object analysis() {
        return instrumenter;
    }
}
