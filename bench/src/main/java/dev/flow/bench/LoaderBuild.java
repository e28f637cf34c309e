package dev.flow.bench;

import dev.flow.loader.ContinuationClassLoader;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Measures building a {@link ContinuationClassLoader} over real jars, then loading classes through it.
 *
 * <pre>
 * java -cp target/benchmarks.jar dev.flow.bench.LoaderBuild --jars a.jar:b.jar --include com.a,com.b [--load 50] [--cache dir]
 * </pre>
 *
 * <p>Prints, for the build: CPU time of the building thread and of the whole process, wall time, the
 * peak of the heap pools during the build and the heap still used after it (after a GC), and how many
 * distinct class files the loader read through its parent (the jars). Then it loads {@code --load}
 * classes of the included packages, spread evenly over them (named in the output), through the loader
 * and, as the reference, through a plain {@link URLClassLoader} over the same jars, and prints the
 * time of each. With {@code --cache}, the loader keeps its final class files in that directory ({@link
 * ContinuationClassLoader.Builder#cacheDirectory}): an empty directory measures a cold cache (every class
 * instrumented and written), one a previous run filled a warm one (every class read from it); the output
 * says how many entries the directory held before and after. Single-threaded: one build, one load pass,
 * then exit.
 */
public final class LoaderBuild {

    private LoaderBuild() {
    }

    /** Runs one measurement; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        List<Path> jars = new ArrayList<>();
        List<String> includes = new ArrayList<>();
        int load = 50;
        Path cache = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--jars":
                    for (String j : args[++i].split(":")) {
                        jars.add(Paths.get(j));
                    }
                    break;
                case "--include":
                    includes.addAll(Arrays.asList(args[++i].split(",")));
                    break;
                case "--load":
                    load = Integer.parseInt(args[++i]);
                    break;
                case "--cache":
                    cache = Paths.get(args[++i]);
                    break;
                default:
                    throw new IllegalArgumentException("argument: " + args[i] + " (expected: --jars, --include, --load or --cache)");
            }
        }
        if (jars.isEmpty() || includes.isEmpty()) {
            throw new IllegalArgumentException("--jars and --include are required");
        }
        URL[] urls = new URL[jars.size()];
        for (int i = 0; i < urls.length; i++) {
            urls[i] = jars.get(i).toUri().toURL();
        }
        List<String> inScope = classesOf(jars, includes);
        List<String> sample = spread(inScope, load);

        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        System.gc();
        long heapBefore = heapUsed();
        resetPeaks();
        Counting parent = new Counting(urls, LoaderBuild.class.getClassLoader());
        long cpu0 = threads.getCurrentThreadCpuTime();
        long proc0 = os.getProcessCpuTime();
        long wall0 = System.nanoTime();
        long entriesBefore = entries(cache);
        ContinuationClassLoader.Builder builder = ContinuationClassLoader.builder()
                .parent(parent).include(includes.toArray(new String[0]));
        ContinuationClassLoader loader = (cache == null ? builder.noCache() : builder.cacheDirectory(cache)).build();
        long wall = System.nanoTime() - wall0;
        long proc = os.getProcessCpuTime() - proc0;
        long cpu = threads.getCurrentThreadCpuTime() - cpu0;
        long peak = heapPeak();
        int readAtBuild = parent.read.size();
        System.gc();
        long retained = heapUsed() - heapBefore;

        System.out.printf("jars: %s%ninclude: %s (%d classes in scope)%n", jars, includes, inScope.size());
        System.out.printf("build: thread cpu %.3f s, process cpu %.3f s, wall %.3f s%n", cpu / 1e9, proc / 1e9, wall / 1e9);
        System.out.printf("build: heap peak %.1f MB (sum of heap pool peaks; %.1f MB used before), retained %.1f MB after GC%n",
                peak / 1e6, heapBefore / 1e6, retained / 1e6);
        System.out.printf("build: class files read %d%n", readAtBuild);

        long l0 = System.nanoTime();
        long c0 = threads.getCurrentThreadCpuTime();
        int failed = 0;
        for (String name : sample) {
            try {
                Class.forName(name, false, loader);
            } catch (Throwable t) {
                failed++;
                System.out.println("load failed: " + name + ": " + t);
            }
        }
        long loadWall = System.nanoTime() - l0;
        long loadCpu = threads.getCurrentThreadCpuTime() - c0;
        System.out.printf("load %d classes through the loader: cpu %.3f s, wall %.3f s (%.2f ms each), %d failed;"
                + " class files read in all %d%n",
                sample.size(), loadCpu / 1e9, loadWall / 1e9, loadWall / 1e6 / Math.max(1, sample.size()), failed,
                parent.read.size());
        System.out.printf("cache: %s, %d entries before, %d after%n", cache == null ? "off" : cache, entriesBefore, entries(cache));
        try (URLClassLoader plain = new URLClassLoader(urls, LoaderBuild.class.getClassLoader())) {
            long p0 = System.nanoTime();
            long pc0 = threads.getCurrentThreadCpuTime();
            for (String name : sample) {
                try {
                    Class.forName(name, false, plain);
                } catch (Throwable t) {
                    System.out.println("plain load failed: " + name + ": " + t);
                }
            }
            long plainWall = System.nanoTime() - p0;
            long plainCpu = threads.getCurrentThreadCpuTime() - pc0;
            System.out.printf("load %d classes through a plain URLClassLoader: cpu %.3f s, wall %.3f s (%.2f ms each)%n",
                    sample.size(), plainCpu / 1e9, plainWall / 1e9, plainWall / 1e6 / Math.max(1, sample.size()));
        }
        System.out.println("loaded: " + sample);
    }

    /** The number of entries under the cache directory {@code dir} (0 without one). */
    private static long entries(Path dir) throws IOException {
        if (dir == null || !java.nio.file.Files.isDirectory(dir)) {
            return 0;
        }
        try (java.util.stream.Stream<Path> s = java.nio.file.Files.walk(dir)) {
            return s.filter(p -> p.toString().endsWith(".class-entry")).count();
        }
    }

    /** Class names under the included packages in the jars, sorted. */
    private static List<String> classesOf(List<Path> jars, List<String> includes) throws IOException {
        Set<String> out = new TreeSet<>();
        for (Path p : jars) {
            try (JarFile jar = new JarFile(p.toFile())) {
                Enumeration<JarEntry> entries = jar.entries();
                while (entries.hasMoreElements()) {
                    String n = entries.nextElement().getName();
                    if (!n.endsWith(".class") || n.startsWith("META-INF/") || n.endsWith("module-info.class")
                            || n.endsWith("package-info.class")) {
                        continue;
                    }
                    String dotted = n.substring(0, n.length() - ".class".length()).replace('/', '.');
                    for (String inc : includes) {
                        if (dotted.startsWith(inc + ".")) {
                            out.add(dotted);
                        }
                    }
                }
            }
        }
        return new ArrayList<>(out);
    }

    /** {@code n} names spread evenly over {@code all}. */
    private static List<String> spread(List<String> all, int n) {
        List<String> out = new ArrayList<>();
        if (n <= 0 || all.isEmpty()) {
            return out;
        }
        int count = Math.min(n, all.size());
        for (int i = 0; i < count; i++) {
            out.add(all.get((int) ((long) i * all.size() / count)));
        }
        return out;
    }

    private static long heapUsed() {
        return heapSum(false);
    }

    private static long heapPeak() {
        return heapSum(true);
    }

    /** The sum over the heap pools of their usage now or of their peak usage. */
    private static long heapSum(boolean peak) {
        long sum = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                sum += (peak ? p.getPeakUsage() : p.getUsage()).getUsed();
            }
        }
        return sum;
    }

    private static void resetPeaks() {
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            p.resetPeakUsage();
        }
    }

    /**
     * A URL class loader that records which of its own class files are found for the loader ({@code
     * getResourceAsStream} goes through {@code getResource}, which asks the parents first and then {@link
     * #findResource}); counting there adds no lookup of its own to the build.
     */
    static final class Counting extends URLClassLoader {
        final Set<String> read = ConcurrentHashMap.newKeySet();

        Counting(URL[] urls, ClassLoader parent) {
            super(urls, parent);
        }

        @Override
        public URL findResource(String name) {
            URL u = super.findResource(name);
            if (u != null && name.endsWith(".class")) {
                read.add(name);
            }
            return u;
        }
    }
}
