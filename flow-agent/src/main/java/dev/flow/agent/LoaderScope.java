package dev.flow.agent;

import dev.flow.loader.InstrumentationException;
import dev.flow.loader.internal.ClassCache;
import dev.flow.loader.internal.Scope;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The agent's view of the scope of one defining loader: which classes it has, generates and defines, and
 * the class file to define for each. With the class cache (the loader's, keyed for this route) a loader
 * whose scope the cache knows is not analysed and its classes are defined from the cache; the analysis
 * runs only when a class is missing there. Without a cache, or with one that does not know the scope
 * yet, the scope is analysed when this is made, as before the cache.
 *
 * <p>Made under the transformer's lock; {@link #bytes} may be called from any thread (the analysis, if
 * it has to run, runs once, under this object's lock).
 */
final class LoaderScope {

    /** The cache's list of the included class files ({@link Scope#classes()}). */
    private static final String CLASSES = "/agent-classes";
    /** The cache's list of the classes that exist only instrumented ({@link Scope#generated()}). */
    private static final String GENERATED = "/agent-generated";

    private final ClassLoader loader;
    private final AgentOptions options;
    private final ClassCache cache;
    private final Set<String> classes;
    private final Set<String> generated;
    private final Set<String> defined;
    /** The analysis; {@code null} while the cache has served every class asked for. */
    private volatile Scope scope;
    /** The thread analysing the scope, while it does. */
    private volatile Thread analysing;

    private LoaderScope(ClassLoader loader, AgentOptions options, ClassCache cache) {
        this.loader = loader;
        this.options = options;
        this.cache = cache;
        Set<String> c = cache == null ? null : cache.names(CLASSES);
        Set<String> g = c == null ? null : cache.names(GENERATED);
        Set<String> d = g == null ? null : cache.defined();
        if (d == null) {
            Scope s = analyse();
            c = s.classes();
            g = s.generated();
            d = s.defined();
            if (cache != null) {
                cache.recordNames(CLASSES, c);
                cache.recordNames(GENERATED, g);
                cache.recordDefined(d);
            }
        }
        this.classes = Set.copyOf(c);
        this.generated = Set.copyOf(g);
        this.defined = Set.copyOf(d);
    }

    /**
     * The scope of {@code loader}: from the class cache if it knows it, else analysed now.
     *
     * @param out where a warning that the cache directory cannot be used is printed, once per directory
     * @throws InstrumentationException if the scope is analysed and cannot be
     */
    static LoaderScope of(ClassLoader loader, AgentOptions options, PrintStream out) {
        Path dir = options.cacheDirectory();
        ClassCache cache = null;
        if (dir != null) {
            List<String> before = ClassCache.warnings();
            cache = ClassCache.open(dir, loader, options.includes, options.excludes, List.of(), options.strict, "agent");
            for (String w : ClassCache.warnings()) {
                if (!before.contains(w)) {
                    out.println("flow-agent: " + w);
                }
            }
        }
        return new LoaderScope(loader, options, cache);
    }

    /** Internal names of the class files found in the included packages. */
    Set<String> classes() {
        return classes;
    }

    /** Internal names of the classes that exist only instrumented, which the agent defines itself. */
    Set<String> generated() {
        return generated;
    }

    /** Whether the scope defines {@code internalName} ({@link Scope#defines}). */
    boolean defines(String internalName) {
        return defined.contains(internalName) || Scope.isCopied(internalName);
    }

    /** Whether the scope has been analysed in this process (not if the cache knew it and had every class asked for). */
    boolean isAnalysed() {
        return scope != null;
    }

    /** The directory of this scope's cache entries, or {@code null} without a cache. */
    Path cacheDirectory() {
        return cache == null ? null : cache.directory();
    }

    /**
     * The class file to define for {@code internalName} ({@link Scope#markedBytes}): from the cache if it
     * has it, else made (the scope analysed first if it was not) and written to the cache; {@code null} if
     * this thread is analysing the scope (a class its analysis loads stays uninstrumented).
     *
     * @throws InstrumentationException as {@link Scope#markedBytes}, or if the scope cannot be analysed
     */
    byte[] bytes(String internalName) {
        if (scope == null && analysing == Thread.currentThread()) {
            return null;
        }
        return cache == null ? scope().markedBytes(internalName)
                : cache.bytes(internalName, loader, () -> scope().markedBytes(internalName));
    }

    private Scope scope() {
        Scope s = scope;
        if (s == null) {
            synchronized (this) {
                s = scope;
                if (s == null) {
                    s = analyse();
                }
            }
        }
        return s;
    }

    /** Analyses the scope; under this object's lock or in the constructor. */
    private Scope analyse() {
        analysing = Thread.currentThread();
        try {
            Scope s = Scope.analyse(loader, options.includes, options.excludes, List.of(), options.strict, loader);
            scope = s;
            return s;
        } finally {
            analysing = null;
        }
    }
}
