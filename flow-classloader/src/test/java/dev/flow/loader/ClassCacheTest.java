package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.internal.Pins;
import dev.flow.loader.conformance.RouteConformance;
import dev.flow.loader.internal.ClassCache;
import flowtest.support.ChildJvm;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The persistent cache of final class files ({@link ContinuationClassLoader.Builder#cacheDirectory}): a
 * hit defines the same class file as instrumenting would, names the same pin sites and logs the same
 * warnings, without instrumenting; a change to a dependency, the options or the mode is a miss; a
 * damaged entry is ignored and written again; loaders writing one cache at once leave valid entries.
 */
class ClassCacheTest {

    /** Fixtures with pinned sites of every kind the rewriting registers (monitors, locks, callbacks, constructors). */
    static final String[] SCOPE = {"flowtest.conformance.pins", "flowtest.conformance.locks"};

    @TempDir
    Path tmp;

    private ContinuationClassLoader.Builder cached() {
        return ContinuationClassLoader.builder().include(SCOPE).cacheDirectory(tmp.resolve("cache"));
    }

    @Test
    void secondLoaderDefinesEveryCachedClassWithoutInstrumentingItAgain() throws Exception {
        ContinuationClassLoader first = cached().build();
        List<String> names = loadAll(first);
        assertTrue(first.classFilesMade() >= names.size(), "the first loader instruments every class it defines");
        assertEquals(first.classFilesMade(), classEntries(first.cacheDirectory()).size(), "and caches each");
        ContinuationClassLoader second = cached().build();
        loadAll(second);
        assertEquals(0, second.classFilesMade(), "the second loader takes every class from the cache");
    }

    @Test
    void loaderOverAScopeTheCacheKnowsAnalysesItOnlyWhenAClassIsMissing() throws Exception {
        List<String> names = names();
        ContinuationClassLoader first = cached().build();
        assertTrue(first.isAnalysed(), "the first loader analyses the scope at build");
        List<String> half = names.subList(0, names.size() / 2);
        for (String n : half) {
            Class.forName(n, false, first);
        }
        ContinuationClassLoader second = cached().build();
        assertFalse(second.isAnalysed(), "the second loader knows the scope's classes from the cache");
        for (String n : half) {
            assertEquals(second, Class.forName(n, false, second).getClassLoader());
        }
        assertFalse(second.isAnalysed(), "every class it loaded was cached");
        String missing = names.get(names.size() - 1);
        Class.forName(missing, false, second);
        assertTrue(second.isAnalysed(), "a class not cached is instrumented, so the scope is analysed");
        ContinuationClassLoader plain = ContinuationClassLoader.builder().include(SCOPE).noCache().build();
        List<String> a = new ArrayList<>();
        List<String> b = new ArrayList<>();
        assertArrayEquals(ClassCache.withoutSiteIds(plain.definedBytes(missing), b),
                ClassCache.withoutSiteIds(second.definedBytes(missing), a));
        assertEquals(b, a);
        assertThrows(IllegalArgumentException.class, () -> cached().build().newInstance(Object.class, "flowtest.support.Async"),
                "and knows which classes are not in scope");
    }

    @Test
    void cachedClassIsTheInstrumentedClassFileNamingTheSameSites() throws Exception {
        loadAll(cached().build());
        ContinuationClassLoader hit = cached().build();
        ContinuationClassLoader miss = ContinuationClassLoader.builder().include(SCOPE).noCache().build();
        int withSites = 0;
        for (String name : names()) {
            List<String> hitSites = new ArrayList<>();
            List<String> missSites = new ArrayList<>();
            byte[] fromCache = ClassCache.withoutSiteIds(hit.definedBytes(name), hitSites);
            byte[] instrumented = ClassCache.withoutSiteIds(miss.definedBytes(name), missSites);
            assertArrayEquals(instrumented, fromCache, name);
            assertEquals(missSites, hitSites, name);
            withSites += hitSites.isEmpty() ? 0 : 1;
        }
        assertEquals(0, hit.classFilesMade());
        assertTrue(withSites >= 10, "the fixtures name pin sites: " + withSites);
    }

    @Test
    void cachedClassPinsAtItsOwnSiteWhenItRuns() throws Exception {
        String name = "flowtest.conformance.pins.MonitorAwaitFails";
        try (FlowScheduler s = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("cache").build()) {
            ContinuationClassLoader miss = cached().build();
            TestSupport.runsWithOneWarning(s, miss, name, "failed, then 9 and -9");
            assertTrue(miss.classFilesMade() > 0);
            ContinuationClassLoader hit = cached().build();
            TestSupport.runsWithOneWarning(s, hit, name, "failed, then 9 and -9");
            assertEquals(0, hit.classFilesMade());
            TestSupport.awaitIdle(s);
        }
    }

    @Test
    void cachedClassLogsTheWarningsOfItsLoadAgainAndStrictLoaderIsRefusedAgain() throws Exception {
        Path grows = GrownPast64KbTest.writeGrows(tmp.resolve("grows"));
        try (URLClassLoader parent = new URLClassLoader(new URL[] {grows.toUri().toURL()}, getClass().getClassLoader())) {
            List<List<String>> warned = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                ContinuationClassLoader loader = ContinuationClassLoader.builder().include("growfix").parent(parent)
                        .cacheDirectory(tmp.resolve("cache")).build();
                int before = Pins.warnings().size();
                loader.loadClass("growfix.Grows");
                warned.add(Pins.warnings().subList(before, Pins.warnings().size()));
                assertEquals(i == 0, loader.classFilesMade() > 0, "made in round " + i + ": " + loader.classFilesMade());
            }
            assertEquals(3, warned.get(0).size(), () -> "one warning per join: " + warned);
            assertEquals(warned.get(0), warned.get(1));

            List<String> refusals = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                ContinuationClassLoader strict = ContinuationClassLoader.builder().include("growfix").parent(parent).strict(true)
                        .cacheDirectory(tmp.resolve("cache")).build();
                refusals.add(assertThrows(InstrumentationException.class, () -> strict.loadClass("growfix.Grows")).getMessage());
                assertTrue(strict.classFilesMade() > 0, "a refusal is not cached");
            }
            assertEquals(refusals.get(0), refusals.get(1));
        }
    }

    @Test
    void changedDependencyJarIsAMissAndGivesTheClassItsNewInstrumentation() throws Exception {
        Path app = tmp.resolve("app");
        writeClass(app, callerClass());
        Path dep = tmp.resolve("dep.jar");
        byte[] v1 = null;
        for (boolean suspends : new boolean[] {true, false}) {
            writeJar(dep, calleeClass(suspends));
            byte[] cachedNow = null;
            for (int i = 0; i < 2; i++) {
                try (URLClassLoader parent = new URLClassLoader(new URL[] {app.toUri().toURL(), dep.toUri().toURL()},
                        getClass().getClassLoader())) {
                    ContinuationClassLoader loader = ContinuationClassLoader.builder().include("cachefix").parent(parent)
                            .cacheDirectory(tmp.resolve("cache")).build();
                    ContinuationClassLoader plain = ContinuationClassLoader.builder().include("cachefix").parent(parent)
                            .noCache().build();
                    byte[] b = loader.definedBytes("cachefix.app.Caller");
                    assertArrayEquals(plain.definedBytes("cachefix.app.Caller"), b, "suspends: " + suspends + ", round " + i);
                    assertEquals(i == 0 ? 1 : 0, loader.classFilesMade(), "suspends: " + suspends + ", round " + i);
                    cachedNow = b;
                }
            }
            if (v1 == null) {
                v1 = cachedNow;
            } else {
                assertFalse(java.util.Arrays.equals(v1, cachedNow), "the caller is instrumented only while the callee suspends");
            }
        }
    }

    @Test
    void otherModeOptionsOrSuspensionPointsUseAnotherKey() throws Exception {
        Path base = cached().build().cacheDirectory();
        assertEquals(base, cached().build().cacheDirectory());
        Set<Path> keys = new TreeSet<>();
        keys.add(base);
        keys.add(cached().strict(true).build().cacheDirectory());
        keys.add(cached().exclude("flowtest.conformance.locks").build().cacheDirectory());
        keys.add(ContinuationClassLoader.builder().include(SCOPE[0]).cacheDirectory(tmp.resolve("cache")).build().cacheDirectory());
        keys.add(cached().suspensionPoint(dev.flow.spi.SuspensionPoint.awaitReceiver("java/util/concurrent/Future", "resultNow",
                "()Ljava/lang/Object;")).build().cacheDirectory());
        assertEquals(5, keys.size(), keys::toString);

        String name = "flowtest.conformance.pins.MonitorAwaitFails";
        cached().build().loadClass(name);
        ContinuationClassLoader strict = cached().strict(true).build();
        strict.loadClass(name);
        assertTrue(strict.classFilesMade() > 0, "a lenient loader's entry is not a strict loader's");
    }

    @Test
    void damagedOrTruncatedEntryIsIgnoredAndWrittenAgain() throws Exception {
        ContinuationClassLoader first = cached().build();
        List<String> names = loadAll(first);
        List<Path> entries = classEntries(first.cacheDirectory());
        assertEquals(first.classFilesMade(), entries.size());
        damage(entries.get(0), b -> java.util.Arrays.copyOf(b, b.length / 2));
        damage(entries.get(1), b -> {
            b[b.length / 2] ^= 1;
            return b;
        });
        damage(entries.get(2), b -> new byte[0]);

        ContinuationClassLoader second = cached().build();
        loadAll(second);
        assertEquals(3, second.classFilesMade(), "the three damaged entries are instrumented again");
        ContinuationClassLoader plain = ContinuationClassLoader.builder().include(SCOPE).noCache().build();
        for (String name : names) {
            List<String> a = new ArrayList<>();
            List<String> b = new ArrayList<>();
            assertArrayEquals(ClassCache.withoutSiteIds(plain.definedBytes(name), b),
                    ClassCache.withoutSiteIds(second.definedBytes(name), a), name);
            assertEquals(b, a, name);
        }
        ContinuationClassLoader third = cached().build();
        loadAll(third);
        assertEquals(0, third.classFilesMade(), "and written again");
    }

    @Test
    void loadersWritingOneCacheAtOnceLeaveOnlyValidEntries() throws Exception {
        int writers = 4;
        CyclicBarrier start = new CyclicBarrier(writers);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<Integer>> made = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                made.add(pool.submit(() -> {
                    ContinuationClassLoader loader = cached().build();
                    start.await(30, TimeUnit.SECONDS);
                    loadAll(loader);
                    return loader.classFilesMade();
                }));
            }
            for (Future<Integer> f : made) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        }
        ContinuationClassLoader after = cached().build();
        List<String> names = loadAll(after);
        assertEquals(0, after.classFilesMade(), "every entry written concurrently is valid");
        assertTrue(entries(after.cacheDirectory()).stream().allMatch(p -> p.toString().endsWith(".class-entry")),
                "no temporary file left");
        assertTrue(entries(after.cacheDirectory()).size() >= names.size());
    }

    /**
     * The class files a cache defines for every conformance fixture (also the categories that {@link
     * ClassCacheConformanceTest} does not run), on a miss (written) and on a hit (read), pass the verifier: the
     * stack map frame at a resume label between a site id and its call (a read of a JDK stream in a
     * method that suspends) is the instrumented class's, not the next frame's.
     */
    @Test
    void everyClassTheCacheDefinesOnAMissAndOnAHitPassesTheVerifier() throws Exception {
        String[] scope = RouteConformance.packages(RouteConformance.SUITES).toArray(new String[0]);
        List<String> names = names(scope);
        for (String round : List.of("miss", "hit")) {
            ContinuationClassLoader loader = ContinuationClassLoader.builder().include(scope).cacheDirectory(tmp.resolve("verified"))
                    .build();
            List<String> refused = new ArrayList<>();
            for (String n : names) {
                try {
                    Class.forName(n, false, loader).getDeclaredMethods(); // links the class: the verifier runs
                } catch (VerifyError e) {
                    refused.add(n + ": " + e.getMessage().lines().findFirst().orElse(""));
                }
            }
            assertEquals(List.of(), refused, round);
            assertEquals(round.equals("miss"), loader.classFilesMade() > 0, round);
        }
    }

    @Test
    void twoJvmsWritingOneCacheAtOnceLeaveOnlyValidEntries() throws Exception {
        Path cache = tmp.resolve("cache");
        Path go = tmp.resolve("go");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<ChildJvm>> jvms = new ArrayList<>();
            List<Path> ready = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                Path r = tmp.resolve("ready-" + i);
                ready.add(r);
                jvms.add(pool.submit(() -> ChildJvm.run(List.of("-Xmx128m", "-cp", System.getProperty("java.class.path"),
                        CacheWriterJvm.class.getName(), cache.toString(), r.toString(), go.toString()), Duration.ofSeconds(180))));
            }
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (!ready.stream().allMatch(Files::exists)) {
                assertTrue(System.nanoTime() < deadline, "both JVMs built their loaders within 120 s");
                assertTrue(jvms.stream().noneMatch(Future::isDone), "a JVM ended before it was told to start");
                Thread.sleep(5);
            }
            Files.createFile(go);
            for (Future<ChildJvm> f : jvms) {
                ChildJvm j = f.get(200, TimeUnit.SECONDS);
                assertEquals(0, j.exitCode, j::output);
                assertNotNull(j.line("made "), j::output);
            }
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        }
        ContinuationClassLoader after = cached().build();
        assertFalse(after.isAnalysed());
        loadAll(after);
        assertEquals(0, after.classFilesMade(), "every entry the two JVMs wrote is valid");
        assertTrue(entries(after.cacheDirectory()).stream().allMatch(p -> p.toString().endsWith(".class-entry")),
                "no temporary file left");
    }

    @Test
    void loaderWithoutCacheWritesNothing() throws Exception {
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include(SCOPE).noCache().build();
        loadAll(loader);
        assertNull(loader.cacheDirectory());
        assertFalse(Files.exists(tmp.resolve("cache")));
        String old = System.getProperty(ContinuationClassLoader.Builder.CACHE_PROPERTY);
        System.setProperty(ContinuationClassLoader.Builder.CACHE_PROPERTY, tmp.resolve("cache").toString());
        try {
            assertNotNull(ContinuationClassLoader.builder().include(SCOPE).build().cacheDirectory(), "the property turns it on");
            assertNull(ContinuationClassLoader.builder().include(SCOPE).noCache().build().cacheDirectory(), "noCache wins");
        } finally {
            if (old == null) {
                System.clearProperty(ContinuationClassLoader.Builder.CACHE_PROPERTY);
            } else {
                System.setProperty(ContinuationClassLoader.Builder.CACHE_PROPERTY, old);
            }
        }
        System.setProperty(ContinuationClassLoader.Builder.CACHE_PROPERTY, "off");
        try {
            assertNull(ContinuationClassLoader.builder().include(SCOPE).build().cacheDirectory(), "the property turns it off");
            assertNotNull(ContinuationClassLoader.builder().include(SCOPE).cacheDirectory(tmp.resolve("cache")).build()
                    .cacheDirectory(), "a directory chosen by the builder wins");
        } finally {
            if (old == null) {
                System.clearProperty(ContinuationClassLoader.Builder.CACHE_PROPERTY);
            } else {
                System.setProperty(ContinuationClassLoader.Builder.CACHE_PROPERTY, old);
            }
        }
    }

    /** Loads every fixture class of {@link #SCOPE} through {@code loader}; returns their names. */
    static List<String> loadAll(ContinuationClassLoader loader) throws Exception {
        List<String> names = names();
        for (String n : names) {
            Class.forName(n, false, loader);
        }
        return names;
    }

    static List<String> names() throws Exception {
        return names(SCOPE);
    }

    static List<String> names(String... packages) throws Exception {
        List<String> out = new ArrayList<>();
        for (String p : packages) {
            Path dir = Paths.get(ClassCacheTest.class.getResource("/" + p.replace('.', '/')).toURI());
            try (Stream<Path> s = Files.list(dir)) {
                s.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".class") && !f.equals("package-info.class"))
                        .sorted().forEach(f -> out.add(p + "." + f.substring(0, f.length() - ".class".length())));
            }
        }
        return out;
    }

    private static List<Path> entries(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().collect(Collectors.toList());
        }
    }

    /** The entries of classes: all but the one listing the scope's classes, named {@code /defined} in its header. */
    private static List<Path> classEntries(Path dir) throws Exception {
        List<Path> out = new ArrayList<>();
        for (Path p : entries(dir)) {
            try (java.io.DataInputStream in = new java.io.DataInputStream(Files.newInputStream(p))) {
                in.skipNBytes(4 + 4 + 32);
                if (!in.readUTF().equals("/defined")) {
                    out.add(p);
                }
            }
        }
        return out;
    }

    private static void damage(Path entry, UnaryOperator<byte[]> how) throws Exception {
        Files.write(entry, how.apply(Files.readAllBytes(entry)));
    }

    /** {@code cachefix.app.Caller}: {@code run()} calls {@code cachefix.dep.Callee.work()} and adds 1. */
    private static byte[] callerClass() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "cachefix/app/Caller", null, "java/lang/Object", null);
        MethodVisitor m = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "run", "()I", null, null);
        m.visitCode();
        m.visitMethodInsn(Opcodes.INVOKESTATIC, "cachefix/dep/Callee", "work", "()I", false);
        m.visitInsn(Opcodes.ICONST_1);
        m.visitInsn(Opcodes.IADD);
        m.visitInsn(Opcodes.IRETURN);
        m.visitMaxs(0, 0);
        m.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    /** {@code cachefix.dep.Callee.work()}: sleeps 1 ms first (a suspension point) or not, then returns 41. */
    private static byte[] calleeClass(boolean suspends) {
        return staticIntMethod("cachefix/dep/Callee", "work", suspends, 41);
    }

    /** Class {@code internalName} with {@code static int <method>()}: sleeps 1 ms first (a suspension point) or not, then returns {@code result}. */
    static byte[] staticIntMethod(String internalName, String method, boolean suspends, int result) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, internalName, null, "java/lang/Object", null);
        MethodVisitor m = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, method, "()I", null,
                new String[] {"java/lang/InterruptedException"});
        m.visitCode();
        if (suspends) {
            m.visitInsn(Opcodes.LCONST_1);
            m.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/Thread", "sleep", "(J)V", false);
        }
        m.visitIntInsn(Opcodes.BIPUSH, result);
        m.visitInsn(Opcodes.IRETURN);
        m.visitMaxs(0, 0);
        m.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    private static void writeClass(Path root, byte[] b) throws Exception {
        String name = new org.objectweb.asm.ClassReader(b).getClassName();
        Path f = root.resolve(name + ".class");
        Files.createDirectories(f.getParent());
        Files.write(f, b);
    }

    /** Writes a jar holding {@code b} in place of {@code jar}, as a build replacing a dependency would. */
    private static void writeJar(Path jar, byte[] b) throws Exception {
        Path next = Files.createTempFile(jar.getParent(), "dep", ".jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(next))) {
            String name = new org.objectweb.asm.ClassReader(b).getClassName();
            for (int slash = name.indexOf('/'); slash >= 0; slash = name.indexOf('/', slash + 1)) {
                out.putNextEntry(new JarEntry(name.substring(0, slash + 1)));
                out.closeEntry();
            }
            out.putNextEntry(new JarEntry(new org.objectweb.asm.ClassReader(b).getClassName() + ".class"));
            out.write(b);
            out.closeEntry();
        }
        Files.move(next, jar, StandardCopyOption.REPLACE_EXISTING);
    }
}
