package dev.flow.loader;

import dev.flow.loader.internal.ClassCache;
import dev.flow.loader.internal.Refusals;
import dev.flow.loader.internal.Scope;
import dev.flow.spi.SuspensionPoint;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Loads the classes of chosen packages so that their blocking calls become suspension points,
 * without annotations and without source changes.
 *
 * <p>It reads every class of the included packages, finds the calls to blocking methods ({@link
 * dev.flow.Transport}'s, {@code Future.get}, {@code CompletableFuture.join}, {@code Thread.sleep},
 * {@code Flow.await}, MINA's {@code IoFuture.await*} when that module is present, and those added
 * with {@link Builder#suspensionPoint}), infers which methods can reach one, and instruments only
 * those; every other class and method is left as it was. Classes outside the included packages
 * come from the parent loader. The analysis runs at {@link Builder#build()}; each class is rewritten
 * and instrumented when it is first loaded. With the persistent cache ({@link Builder#cacheDirectory},
 * on by default in a directory of the user's, {@link Builder#defaultCache()}), a class a loader built the
 * same way over the same class files defined before is defined from the cache instead, and a loader
 * whose cache knows its scope analyses it only when a class is missing from the cache.
 *
 * <p>A suspension that would cross a frame that cannot be captured (a JDK callback such as {@code
 * List.forEach}, reflection, a constructor, a held monitor) blocks the worker thread instead and
 * logs one warning per call site, or, with {@link Builder#strict(boolean) strict(true)}, throws
 * {@link dev.flow.UnsuspendableFrameException} at every await reached there, whether or not it would
 * block. In-scope code calling in-scope overrides of JDK methods ({@code Iterator.next}, {@code
 * Callable.call}, {@code InputStream.read}, ...) suspends: only a genuine JDK frame pins.
 *
 * <p>A method the continuation engine cannot instrument (one that would grow past 64 KB, one the
 * engine fails on) is refused when its class is loaded, with {@link InstrumentationException} naming
 * the class, method, descriptor and reason, in strict mode; in lenient mode it runs as compiled and
 * each of its suspension points pins the flow, one warning per site logged when the class is loaded.
 * Classes of a multi-release jar are read as the running JDK reads them.
 *
 * <p>Parallel-capable: classes are defined under one lock per class name.
 *
 * <pre>{@code
 * ContinuationClassLoader loader = ContinuationClassLoader.builder().include("com.example.protocol").build();
 * Callable<?> client = loader.newInstance(Callable.class, "com.example.protocol.Client", transport);
 * scheduler.submit(client);
 * }</pre>
 */
public final class ContinuationClassLoader extends ClassLoader {

    static {
        registerAsParallelCapable();
        // Binds SLF4J (quietly when no provider is present) before JavaFlow asks it for a logger.
        dev.flow.internal.Slf4j.provided();
    }

    /**
     * The protection domain of the classes this loader defines. Unlike the default domain it does not
     * name the loader: a thread that the JDK starts lazily from their code (a {@code CompletableFuture}
     * delayer, a pool worker) captures the domains on its stack for its whole life, and would keep a
     * dropped loader reachable through it.
     */
    private static final ProtectionDomain DOMAIN = new ProtectionDomain(new CodeSource(null, (Certificate[]) null), null);

    private final List<String> includes;
    private final boolean strict;
    private final ClassLoader source;
    private final List<String> excludes;
    private final List<SuspensionPoint> points;
    /** Held while the scope is analysed. */
    private final Object analysing = new Object();
    /** The analysis; {@code null} until a class is not in the cache when the cache knew the scope. */
    private volatile Scope scope;
    /** The classes the scope defines but Flow's copies ({@link Scope#defined()}). */
    private final Set<String> defined;
    /** The persistent cache of final class files, or {@code null}. */
    private final ClassCache cache;

    private ContinuationClassLoader(Builder b) {
        super("flow-continuations", b.parent);
        this.includes = List.copyOf(b.includes);
        this.excludes = List.copyOf(b.excludes);
        this.points = List.copyOf(b.points);
        this.strict = b.strict;
        this.source = b.parent;
        dev.flow.internal.Exports.toUnnamedModuleOf(this);
        Path dir = b.cacheSet ? b.cache : Builder.propertyCache();
        this.cache = dir == null ? null : ClassCache.open(dir, b.parent, includes, excludes, points, strict);
        Set<String> known = cache == null ? null : cache.defined();
        if (known != null) {
            this.defined = known;
        } else {
            Scope s = scope();
            this.defined = s.defined();
            if (cache != null) {
                cache.recordDefined(defined);
            }
        }
    }

    /**
     * The analysis of the scope, made now if it was not at build: a loader whose cache knew the scope
     * analyses it only when a class is missing from the cache.
     */
    private Scope scope() {
        Scope s = scope;
        if (s == null) {
            synchronized (analysing) {
                s = scope;
                if (s == null) {
                    try {
                        s = Scope.analyse(source, includes, excludes, points, strict, this);
                    } catch (InstrumentationException e) {
                        throw Refusals.recorded(e);
                    }
                    scope = s;
                }
            }
        }
        return s;
    }

    private boolean defines(String internal) {
        return defined.contains(internal) || Scope.isCopied(internal);
    }

    /** Returns a builder. At least one package must be included. */
    public static Builder builder() {
        return new Builder();
    }

    /** The included packages. */
    public List<String> includes() {
        return includes;
    }

    /** The excluded packages (inside the included ones). */
    public List<String> excludes() {
        return excludes;
    }

    /** Whether unsuspendable frames throw instead of blocking. */
    public boolean isStrict() {
        return strict;
    }

    /**
     * Loads {@code className} through this loader and creates an instance with the constructor that
     * accepts {@code args}.
     *
     * @throws IllegalArgumentException if the class is not in an included package, is not a {@code
     *     type}, or has no matching constructor
     * @throws InstrumentationException if the class cannot be instrumented
     */
    public <T> T newInstance(Class<T> type, String className, Object... args) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(className, "className");
        if (!defines(className.replace('.', '/'))) {
            throw new IllegalArgumentException("className: " + className + " (expected: a class in an included package "
                    + includes + ")");
        }
        Class<?> c;
        try {
            c = loadClass(className);
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("className: " + className + " (expected: a class that exists)", e);
        }
        if (!type.isAssignableFrom(c)) {
            throw new IllegalArgumentException("className: " + className + " (expected: a subtype of " + type.getName() + ")");
        }
        for (Constructor<?> k : c.getDeclaredConstructors()) {
            if (matches(k.getParameterTypes(), args)) {
                try {
                    k.setAccessible(true);
                    return type.cast(k.newInstance(args));
                } catch (InvocationTargetException e) {
                    Throwable t = e.getCause();
                    if (t instanceof RuntimeException) {
                        throw (RuntimeException) t;
                    }
                    if (t instanceof Error) {
                        throw (Error) t;
                    }
                    throw new IllegalStateException("constructor of " + className + " failed", t);
                } catch (InstantiationException | IllegalAccessException e) {
                    throw new IllegalArgumentException("className: " + className + " (expected: an instantiable class)", e);
                }
            }
        }
        throw new IllegalArgumentException("className: " + className + " (expected: a constructor accepting "
                + args.length + " argument(s) of the given types)");
    }

    private static boolean matches(Class<?>[] params, Object[] args) {
        if (params.length != args.length) {
            return false;
        }
        for (int i = 0; i < params.length; i++) {
            Class<?> p = params[i].isPrimitive() ? box(params[i]) : params[i];
            if (args[i] != null && !p.isInstance(args[i])) {
                return false;
            }
            if (args[i] == null && params[i].isPrimitive()) {
                return false;
            }
        }
        return true;
    }

    private static Class<?> box(Class<?> p) {
        if (p == int.class) return Integer.class;
        if (p == long.class) return Long.class;
        if (p == boolean.class) return Boolean.class;
        if (p == double.class) return Double.class;
        if (p == float.class) return Float.class;
        if (p == char.class) return Character.class;
        if (p == byte.class) return Byte.class;
        return Short.class;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        String internal = name.replace('.', '/');
        if (!defines(internal)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                byte[] b = finalBytes(internal);
                c = defineClass(name, b, 0, b.length, DOMAIN);
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        throw new ClassNotFoundException(name);
    }

    private byte[] finalBytes(String internal) {
        try {
            return cache == null ? scope().bytes(internal) : cache.bytes(internal, this, () -> scope().bytes(internal));
        } catch (InstrumentationException e) {
            throw Refusals.recorded(e);
        }
    }

    /** The class file this loader defines for {@code className}, for tests and diagnostics. */
    byte[] definedBytes(String className) {
        return finalBytes(className.replace('.', '/'));
    }

    /** The analysis of this loader's scope, for tests that check it is collected with the loader. */
    Object analysis() {
        return scope().analysis();
    }

    /** Whether the scope has been analysed: not at build if the cache knew it, then when a class is missing (for tests). */
    boolean isAnalysed() {
        return scope != null;
    }

    /** How many class files this loader rewrote or instrumented rather than took from its cache (for tests). */
    int classFilesMade() {
        Scope s = scope;
        return s == null ? 0 : s.classFilesMade();
    }

    /** The directory of this loader's cache entries, or {@code null} if it has no cache (for tests). */
    Path cacheDirectory() {
        return cache == null ? null : cache.directory();
    }

    /** Whether the analysis found {@code owner.name+desc} suspendable (internal names). */
    boolean isSuspendable(String owner, String name, String desc) {
        return scope().isSuspendable(owner, name, desc);
    }

    @Override
    public String toString() {
        return "ContinuationClassLoader" + includes + (strict ? "[strict]" : "");
    }

    /** Builds a {@link ContinuationClassLoader}. Not thread-safe. */
    public static final class Builder {
        /**
         * The system property that sets the cache of loaders whose builder does not: a directory, {@code
         * default} (the default directory, as when it is not set), or {@code off}.
         */
        static final String CACHE_PROPERTY = ClassCache.CACHE_PROPERTY;

        private final List<String> includes = new ArrayList<>();
        private final List<String> excludes = new ArrayList<>();
        private final List<SuspensionPoint> points = new ArrayList<>();
        private ClassLoader parent = defaultParent();
        private boolean strict;
        private boolean cacheSet;
        private Path cache;

        private Builder() {
        }

        /** The cache directory the system property names, the default one if it is not set, or {@code null} for {@code off}. */
        static Path propertyCache() {
            return ClassCache.propertyDirectory();
        }

        private static ClassLoader defaultParent() {
            ClassLoader l = Thread.currentThread().getContextClassLoader();
            return l != null ? l : ContinuationClassLoader.class.getClassLoader();
        }

        /** Includes packages (and their sub-packages), e.g. {@code com.example.protocol}. */
        public Builder include(String... packages) {
            for (String p : packages) {
                includes.add(Scope.checkPackage("include", p));
            }
            return this;
        }

        /** Excludes packages (and their sub-packages) from the included ones. */
        public Builder exclude(String... packages) {
            for (String p : packages) {
                excludes.add(Scope.checkPackage("exclude", p));
            }
            return this;
        }

        /** The parent loader; default the thread's context class loader. */
        public Builder parent(ClassLoader parent) {
            this.parent = Objects.requireNonNull(parent, "parent");
            return this;
        }

        /**
         * Strict: throw {@link dev.flow.UnsuspendableFrameException} at every await a flow reaches
         * where it cannot suspend, whether or not the await would block. Default {@code false}: block
         * the thread and log one warning per call site, the first time an await there blocks.
         */
        public Builder strict(boolean strict) {
            this.strict = strict;
            return this;
        }

        /**
         * Keeps the final class files this loader defines in {@code directory}, and defines a class from
         * there without analysing or instrumenting it when a loader built the same way over the same class
         * files wrote it before (in this process or another).
         *
         * <p>An entry is used only under the key it was written with: the content of every class path
         * entry of the parent loader and its ancestors (a jar by its entries' names, sizes and CRC-32s, a
         * directory by its class files' and service lists' SHA-256s, and the jars their manifests
         * name), Flow's own jars, the JDK (version, vendor, home), the included and excluded packages,
         * the added suspension points and the mode. A class's instrumentation depends on the analysis of every class it calls, so a
         * change to any jar gives every class a new key. A parent chain with a loader that is neither
         * the application class loader nor a {@code URLClassLoader} over files and directories has no
         * such key: the cache is then not used. An entry whose checksum, length, key or class does not
         * match is ignored and written again. The pin sites of a class are registered again, and the
         * warnings logged when it was first loaded are logged again, on every hit; a class refused in
         * strict mode is never cached, so it is refused again.
         *
         * <p>Each key has a subdirectory of {@code directory}; entries are written to a temporary file and
         * moved into place atomically, so processes of the same user may share the directory. Building a
         * loader removes the subdirectories beyond the 32 most recently used and those unused for 30 days.
         * A failure to read or write an entry is logged at debug level and the class is instrumented as
         * without the cache.
         *
         * <p>Whoever can write the directory chooses the code the loader defines, so it must belong to the
         * user running the process and be writable by nobody else (no group or other write permission);
         * a missing directory is created, with its missing parents, owner-only ({@code rwx------}). A
         * directory that breaks this rule, or cannot be created or written, is not used: the loader has
         * no cache, and one warning per directory is logged. Never choose a shared temporary directory.
         *
         * <p>Default: {@link #defaultCache()}, unless the system property {@code dev.flow.loader.cache}
         * names another directory or is {@code off}.
         */
        public Builder cacheDirectory(Path directory) {
            this.cache = Objects.requireNonNull(directory, "directory");
            this.cacheSet = true;
            return this;
        }

        /**
         * {@link #cacheDirectory} in {@code $XDG_CACHE_HOME/flow/classes}, or {@code ~/.cache/flow/classes}
         * if that variable is not set: the default, unless the system property {@code
         * dev.flow.loader.cache} says otherwise.
         */
        public Builder defaultCache() {
            return cacheDirectory(ClassCache.defaultDirectory());
        }

        /**
         * No persistent cache, whatever the system property {@code dev.flow.loader.cache} says (also
         * {@code -Ddev.flow.loader.cache=off} for loaders whose builder does not choose).
         */
        public Builder noCache() {
            this.cache = null;
            this.cacheSet = true;
            return this;
        }

        /** Adds a suspension point (see {@link SuspensionPoint}). */
        public Builder suspensionPoint(SuspensionPoint point) {
            points.add(Objects.requireNonNull(point, "point"));
            return this;
        }

        /**
         * Builds the loader: scans and analyses the included packages. Classes are rewritten when
         * first loaded: a method whose rewritten form breaks a class-file limit is left as compiled
         * then (lenient) or its class refused (strict).
         *
         * @throws IllegalStateException if no package is included
         * @throws InstrumentationException if an included class cannot be analysed, runs JavaFlow
         *     continuations itself, or a suspension point's replacement is missing
         */
        public ContinuationClassLoader build() {
            if (includes.isEmpty()) {
                throw new IllegalStateException("include: [] (expected: at least one package)");
            }
            return new ContinuationClassLoader(this);
        }
    }
}
