package dev.flow.bench.load;

import com.sun.management.OperatingSystemMXBean;
import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.bench.VirtualThreads;
import dev.flow.internal.Pins;
import dev.flow.internal.SchedulerCore;
import dev.flow.libraries.PostgresServer;
import dev.flow.loader.ContinuationClassLoader;
import dev.flow.mina.Dispatch;
import dev.flow.mina.FlowConnector;
import dev.flow.mina.FlowSocketFactory;
import dev.flow.spi.SuspensionPointProvider;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.net.URL;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.SocketFactory;

/**
 * Many concurrent client sessions of unmodified client libraries, in up to seven modes, measured from inside the
 * client JVM: wall time, this JVM's CPU time (user + system), its peak platform-thread count, in continuation
 * mode the flows' resumptions and the library's pinned sites, the part of that CPU time its JIT compiler threads and
 * its garbage collector's threads spent ({@link ProcStats#jitAndGcCpuNanos}), and the bytes it allocated (JDK 21+).
 * An instrumented library's code is larger, and still being compiled rounds after the plain one's, so the medians
 * also compare the CPU time less those two.
 *
 * <p>Libraries ({@code --libraries}), each session the transcript of a client class of the {@code libraries}
 * module's test jar, which opens its own connection: {@code jedis} (Jedis 8, {@code JedisClient}: PING, SET/GET,
 * INCR, an error reply, a pipeline, DEL) against the RESP sample; {@code http} (Apache HttpClient 5 classic,
 * {@code HttpClient5Client}: a GET, a POST echoed, a GET the server answers after 20 ms, a 404, over one
 * keep-alive connection) against the HTTP sample; {@code smtp} (Commons Net's {@code SMTPClient}, {@code
 * CommonsNetMail} without POP3: HELO, MAIL, RCPT, DATA, QUIT) against the SMTP sample; {@code jakarta-mail}
 * (Jakarta Mail as Eclipse Angus, {@code JakartaMail} without POP3, its socket factory named by class: {@code
 * FlowSocketFactory} for flows, the JDK's otherwise) against the SMTP sample, which pins at every wait (its
 * protocol methods are {@code synchronized}), so only its lenient {@code continuation} mode runs; {@code pgjdbc} ({@code
 * PgJdbcClient}'s transcript, connect included: in continuation mode the connect pins, as pgjdbc connects in a
 * constructor), {@code pgjdbc-queries} (the same over connections opened beforehand, not timed) and {@code
 * pgjdbc-selects} ({@code PgJdbcSelects}, over connections opened beforehand: selects that change no catalog,
 * where {@code PgJdbcClient}'s temporary table makes every other backend process its invalidations) against
 * PostgreSQL from Maven Central binaries ({@code PostgresServer}).
 *
 * <p>The servers are other processes, the same for every mode of a library, so the CPU compared is the client's
 * alone: the samples run in one {@link LoadServer} JVM per library in {@code --server-mode} (default {@code
 * virtual}, else {@code continuation-immediately} below JDK 21), PostgreSQL as its own processes. The server's CPU
 * is reported beside it: the sample's JVM, or PostgreSQL's postmaster with all its backends.
 *
 * <p>Modes, interleaved round by round, in an order that rotates by one each round ({@link #inRound}): {@code
 * threads} (a platform thread per session, the library loaded normally, the JDK's sockets), {@code virtual} (a
 * virtual thread per session, otherwise the same; JDK 21+) and {@code continuation} (a flow per session on {@code
 * --workers} workers, the library through a lenient {@code ContinuationClassLoader} built once per library, sockets
 * from {@link FlowSocketFactory}'s default connector, {@code SuspendPolicy.immediately()}, or {@code --policy});
 * and, asked for by name, {@code continuation-strict} (the same through a strict loader: the flows may resume on the
 * default connector's I/O threads, its default {@code Dispatch.ADAPTIVE}) and {@code continuation-strict-workers}
 * (strict, the sockets from a connector of the library's own with {@code Dispatch.WORKERS}, the connectors' default
 * before {@code ADAPTIVE}; not for pgjdbc, which takes its factory by class name), {@code threads-instrumented} and
 * {@code virtual-instrumented} (the library instrumented as for the continuation modes, less {@code
 * flow-mina-transport}'s points, which would make the sockets it allocates itself Flow's: run on a platform or
 * virtual thread per session over the JDK's sockets: outside a flow nothing suspends, so their CPU against {@code
 * threads}' or {@code virtual}'s is what the instrumented code costs by itself, without Flow's scheduler and
 * transport). The first {@code
 * --warmup-rounds} rounds (default 3: with one, the JIT compiler was still half of both modes' CPU in the next
 * rounds) warm up (first loads, the instrumentation, JIT) and are printed apart as {@code warm-up}, not in the
 * medians. Every session must return the text of a session run alone on the main thread; each wait is bounded
 * ({@value #WAIT_SECONDS} s per session).
 *
 * <p>Usage: {@code java -Xmx1g -cp benchmarks.jar:<library class path> dev.flow.bench.load.LibrarySessions
 * [--libraries=jedis,http,smtp,pgjdbc] [--sessions=500] [--workers=2] [--rounds=3] [--server-mode=virtual]
 * [--modes=threads,virtual,continuation,continuation-strict,continuation-strict-workers,threads-instrumented,
 * virtual-instrumented] [--warmup-rounds=3]
 * [--policy=immediately|adaptive|after1ms] [--max-pinned-threads=256]} (the flows' scheduler's {@code
 * maxPinnedThreads}: threads that stand in for workers blocked in pinned waits).
 * Exits 0 when every session returned the expected text, 1 otherwise. Not thread-safe: one run at a time.
 */
public final class LibrarySessions {

    static final long WAIT_SECONDS = 300;
    /** Every mode, in the order of the usage line. */
    static final List<String> MODES = List.of("threads", "virtual", "continuation", "continuation-strict",
            "continuation-strict-workers", "threads-instrumented", "virtual-instrumented");
    private static final String SERVER_JVM_ARGS = "-Xms256m -Xmx256m -XX:+UseG1GC -XX:+AlwaysPreTouch";
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** {@code getTotalThreadAllocatedBytes()} of {@link #THREADS}, a JDK 21+ method, or {@code null}. */
    private static final Method TOTAL_ALLOCATED = totalAllocated();
    private static final OperatingSystemMXBean OS = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /** A client library: its session class (a {@code Callable}) and the packages the loader includes. */
    enum Library {
        JEDIS("jedis", "redis", "flowtest.libraries.JedisClient", "redis.clients.jedis"),
        HTTP("http", "http", "flowtest.libraries.HttpClient5Client", "org.apache.hc.client5", "org.apache.hc.core5"),
        SMTP("smtp", "smtp", "flowtest.mail.CommonsNetMail", "org.apache.commons.net"),
        JAKARTA_MAIL("jakarta-mail", "smtp", "flowtest.mail.JakartaMail", "jakarta.mail", "org.eclipse.angus",
                "jakarta.activation"),
        PGJDBC("pgjdbc", null, "flowtest.libraries.PgJdbcClient", "org.postgresql"),
        PGJDBC_QUERIES("pgjdbc-queries", null, "flowtest.libraries.PgJdbcClient", "org.postgresql"),
        PGJDBC_SELECTS("pgjdbc-selects", null, "flowtest.libraries.PgJdbcSelects", "org.postgresql");

        final String id;
        /** The {@link LoadServer} protocol, or {@code null} for PostgreSQL. */
        final String protocol;
        final String clientClass;
        final List<String> packages;

        Library(String id, String protocol, String clientClass, String... libraryPackages) {
            this.id = id;
            this.protocol = protocol;
            this.clientClass = clientClass;
            List<String> p = new ArrayList<>(Arrays.asList(libraryPackages));
            p.add(clientClass.substring(0, clientClass.lastIndexOf('.')));
            this.packages = List.copyOf(p);
        }

        static Library of(String id) {
            for (Library l : values()) {
                if (l.id.equals(id)) {
                    return l;
                }
            }
            throw new IllegalArgumentException("library: " + id
                    + " (expected one of: jedis, http, smtp, jakarta-mail, pgjdbc, pgjdbc-queries, pgjdbc-selects)");
        }

        /** Whether a pin warning names a class of this library or of its client class's package. */
        boolean names(String warning) {
            for (String p : packages) {
                if (warning.contains(p + ".")) {
                    return true;
                }
            }
            return false;
        }
    }

    /** One measured run: a library, a round, a mode. */
    record Run(Library library, int round, String mode, double wallMs, double cpuMs, double serverCpuMs, int peakThreads,
            long resumptions, int pinnedSites, double load, int failures, double jitCpuMs, double gcCpuMs,
            double allocatedMb, boolean instrumented) {

        /** The client's CPU time less its JIT compilers' and its garbage collector's, or -1 if those are unknown. */
        double ownCpuMs() {
            return jitCpuMs < 0 || gcCpuMs < 0 ? -1 : cpuMs - jitCpuMs - gcCpuMs;
        }
    }

    private final int sessions;
    private final int workers;
    private final Mode serverMode;
    private final PrintStream out;
    private final List<Run> runs = new ArrayList<>();
    /** Rounds run first and reported apart ({@code warm-up}): first loads, instrumentation, JIT compilation. */
    private int warmupRounds = 1;
    /** The continuation mode's suspend policy. */
    private SuspendPolicy policy = SuspendPolicy.immediately();
    /** The flows' scheduler's {@code maxPinnedThreads}. */
    private int maxPinnedThreads = SchedulerCore.DEFAULT_MAX_PINNED_THREADS;
    /** The modes run in each round, in the order of the first measured round (see {@link #inRound}). */
    private List<String> modes = VirtualThreads.available() ? List.of("threads", "virtual", "continuation")
            : List.of("threads", "continuation");

    LibrarySessions(int sessions, int workers, Mode serverMode, PrintStream out) {
        if (sessions <= 0) {
            throw new IllegalArgumentException("sessions: " + sessions + " (expected: > 0)");
        }
        if (workers <= 0) {
            throw new IllegalArgumentException("workers: " + workers + " (expected: > 0)");
        }
        this.sessions = sessions;
        this.workers = workers;
        this.serverMode = serverMode;
        this.out = out;
    }

    public static void main(String[] args) throws Exception {
        Args a = new Args(args);
        List<String> libraries = a.getList("libraries", "jedis,http,smtp,pgjdbc");
        int sessions = a.getInt("sessions", 500);
        int workers = a.getInt("workers", 2);
        int rounds = a.getInt("rounds", 3);
        Mode serverMode = Mode.parse(a.get("server-mode", VirtualThreads.available() ? "virtual" : "continuation-immediately"));
        List<String> modes = a.getList("modes", VirtualThreads.available() ? "threads,virtual,continuation" : "threads,continuation");
        int warmupRounds = a.getInt("warmup-rounds", 3);
        String policy = a.get("policy", "immediately");
        int maxPinnedThreads = a.getInt("max-pinned-threads", SchedulerCore.DEFAULT_MAX_PINNED_THREADS);
        a.checkAllUsed();
        LibrarySessions bench = new LibrarySessions(sessions, workers, serverMode, System.out);
        bench.modes(modes);
        bench.warmupRounds = warmupRounds;
        bench.policy = policy(policy);
        bench.maxPinnedThreads = maxPinnedThreads;
        int failures = 0;
        for (String id : libraries) {
            failures += bench.run(Library.of(id), rounds);
        }
        bench.summary();
        System.out.println(failures == 0 ? "every session returned the expected text" : failures + " sessions failed");
        System.exit(failures == 0 ? 0 : 1);
    }

    static SuspendPolicy policy(String name) {
        switch (name) {
            case "immediately":
                return SuspendPolicy.immediately();
            case "adaptive":
                return SuspendPolicy.adaptive();
            case "after1ms":
                return SuspendPolicy.after(java.time.Duration.ofMillis(1));
            default:
                throw new IllegalArgumentException("policy: " + name + " (expected: immediately, adaptive or after1ms)");
        }
    }

    /**
     * Sets the modes run in each round, in the order of the first measured round (see {@link #MODES}, {@link
     * #inRound}).
     */
    void modes(List<String> modes) {
        this.modes = List.copyOf(modes);
    }

    /** The runs measured so far, warm-up rounds included (round &lt;= 0). */
    List<Run> runs() {
        return List.copyOf(runs);
    }

    /** Runs the warm-up rounds, then {@code rounds} measured rounds of {@code library}; returns the failed sessions. */
    int run(Library library, int rounds) throws Exception {
        for (String m : modes) {
            if (!MODES.contains(m) || m.startsWith("virtual") && !VirtualThreads.available()) {
                throw new IllegalArgumentException("mode: " + m + " (expected: threads, continuation, continuation-strict,"
                        + " continuation-strict-workers, threads-instrumented, or virtual and virtual-instrumented on"
                        + " JDK 21+)");
            }
            if (m.startsWith("continuation-strict") && library == Library.JAKARTA_MAIL) {
                throw new IllegalArgumentException("mode: " + m + " (expected for jakarta-mail: threads, virtual,"
                        + " continuation, threads-instrumented or virtual-instrumented; a strict loader refuses Jakarta"
                        + " Mail, which pins at every wait)");
            }
            if (m.equals("continuation-strict-workers") && library.protocol == null) {
                throw new IllegalArgumentException("mode: " + m + " (expected for " + library.id + ": threads, virtual,"
                        + " continuation or continuation-strict; pgjdbc takes its socket factory by class name)");
            }
        }
        out.printf(Locale.ROOT, "%s: JDK %s, %d sessions, %d workers, %d rounds (+%d warm-up), policy %s, server %s,"
                + " load average %.2f%n", library.id, Runtime.version(), sessions, workers, rounds, warmupRounds, policy,
                library.protocol == null ? "PostgreSQL" : serverMode.id() + " JVM", OS.getSystemLoadAverage());
        out.println("library | round | mode | wall ms | client CPU ms | server CPU ms | peak threads | resumptions"
                + " | pinned sites | load average | JIT CPU ms | GC CPU ms | allocated MB");
        int failures = 0;
        try (Target target = Target.start(library, serverMode, workers, sessions, out);
                FlowConnector workersConnector = FlowConnector.builder().daemonThreads(true).dispatch(Dispatch.WORKERS)
                        .build()) {
            String[] packages = library.packages.toArray(new String[0]);
            Map<String, Loaded> loaded = new LinkedHashMap<>();
            loaded.put("continuation", new Loaded(ContinuationClassLoader.builder().include(packages).build(),
                    FlowSocketFactory.getDefault()));
            ContinuationClassLoader strict = ContinuationClassLoader.builder().include(packages).strict(true).build();
            loaded.put("continuation-strict", new Loaded(strict, FlowSocketFactory.getDefault()));
            loaded.put("continuation-strict-workers", new Loaded(strict, workersConnector.socketFactory()));
            ContinuationClassLoader jdkSockets = instrumentedOnThreads(packages);
            for (String instrumented : List.of("threads-instrumented", "virtual-instrumented")) {
                loaded.put(instrumented, new Loaded(jdkSockets, null));
            }
            String expected = String.valueOf(target.session(ClassLoader.getSystemClassLoader(), null, "alone").call());
            for (String mode : modes) {
                if (isFlow(mode)) {
                    failures += firstUse(library, target, loaded.get(mode), expected, mode);
                    break;
                }
            }
            for (int round = 1 - warmupRounds; round <= rounds; round++) {
                for (String mode : inRound(modes, round)) {
                    Run r = runOnce(library, target, loaded.get(mode), expected, round, mode);
                    runs.add(r);
                    failures += r.failures();
                    out.printf(Locale.ROOT, "%s | %s | %s | %.0f | %.0f | %s | %d | %s | %s | %.2f | %s | %s | %s%n",
                            library.id,
                            round <= 0 ? "warm-up" : Integer.toString(round), mode, r.wallMs(), r.cpuMs(),
                            r.serverCpuMs() < 0 ? "-" : String.format(Locale.ROOT, "%.0f", r.serverCpuMs()), r.peakThreads(),
                            isFlow(mode) ? Long.toString(r.resumptions()) : "-",
                            isFlow(mode) ? Integer.toString(r.pinnedSites()) : "-", r.load(), whole(r.jitCpuMs()),
                            whole(r.gcCpuMs()), whole(r.allocatedMb()));
                }
            }
        }
        return failures;
    }

    /**
     * The modes in the order round {@code round} runs them (the first measured round is 1, warm-up rounds are 0
     * and below): {@code modes} as given in round 1, rotated by one more each round, so that no mode always runs
     * first, or always right after the same other mode (a server such as PostgreSQL carries work from one run
     * into the next, and the client JVM its garbage and compilations).
     */
    static List<String> inRound(List<String> modes, int round) {
        int first = Math.floorMod(round - 1, modes.size());
        List<String> order = new ArrayList<>(modes.subList(first, modes.size()));
        order.addAll(modes.subList(0, first));
        return order;
    }

    /** Whether {@code mode} runs the sessions as flows. */
    static boolean isFlow(String mode) {
        return mode.startsWith("continuation");
    }

    /**
     * The instrumented modes' loader of {@code packages}: lenient, as the continuation mode's, but over {@link
     * WithoutProviderPoints}, so that the instrumented code runs over the JDK's sockets (flow-mina-transport's points
     * would make the sockets it allocates and its default factories Flow's, used from threads).
     */
    static ContinuationClassLoader instrumentedOnThreads(String... packages) {
        return ContinuationClassLoader.builder().parent(new WithoutProviderPoints(ClassLoader.getSystemClassLoader()))
                .include(packages).build();
    }

    /**
     * A parent for the instrumented modes' loader: the system class loader, less the {@code SuspensionPointProvider}
     * services it lists ({@code flow-mina-transport}'s {@code MinaSuspensionPoints}), so that the loader keeps the
     * JDK's socket allocations and default factories and adds nothing else to the built-in points.
     */
    static final class WithoutProviderPoints extends ClassLoader {
        private static final String PROVIDERS = "META-INF/services/" + SuspensionPointProvider.class.getName();

        WithoutProviderPoints(ClassLoader parent) {
            super("without-provider-points", parent);
        }

        @Override
        public Enumeration<URL> getResources(String name) throws IOException {
            return name.equals(PROVIDERS) ? Collections.emptyEnumeration() : super.getResources(name);
        }
    }

    /**
     * A mode's loader of the library and the sockets its sessions connect with: Flow's for a continuation mode,
     * {@code null} (the JDK's) for an instrumented one on threads.
     */
    private record Loaded(ContinuationClassLoader loader, SocketFactory sockets) {
    }

    /**
     * Runs one session of the first continuation mode alone, twice, before any round: the first loads and
     * instruments the library's classes it reaches (first use), the second shows what one session costs once they
     * are loaded. A second continuation mode's first use is in its first warm-up round.
     */
    private int firstUse(Library library, Target target, Loaded loaded, String expected, String mode) throws Exception {
        int failures = 0;
        for (String which : List.of("first", "second")) {
            Callable<?> task = target.session(loaded.loader(), loaded.sockets(), "alone-" + which);
            long cpu0 = OS.getProcessCpuTime();
            long t0 = System.nanoTime();
            Object result = runFlows(List.of(task), new long[1]).get(0);
            long wall = System.nanoTime() - t0;
            long cpu = OS.getProcessCpuTime() - cpu0;
            if (!expected.equals(String.valueOf(result))) {
                failures++;
                out.println("unexpected result (" + library.id + ", " + mode + " alone): " + result);
            }
            out.printf(Locale.ROOT, "%s: %s %s session alone: wall %.0f ms, client CPU %.0f ms%n", library.id,
                    which, mode, wall / 1e6, cpu / 1e6);
        }
        return failures;
    }

    /**
     * One round of {@code mode}: {@code loaded} is its loader and sockets ({@code null} sockets: the JDK's), {@code null}
     * for the library loaded normally.
     */
    private Run runOnce(Library library, Target target, Loaded loaded, String expected, int round, String mode)
            throws Exception {
        boolean flow = isFlow(mode);
        ClassLoader classes = loaded != null ? loaded.loader() : ClassLoader.getSystemClassLoader();
        SocketFactory sockets = loaded != null ? loaded.sockets() : null;
        List<Callable<?>> tasks = new ArrayList<>();
        for (int i = 0; i < sessions; i++) {
            tasks.add(target.session(classes, sockets, "r" + round + "m" + MODES.indexOf(mode) + "s" + i));
        }
        long serverCpu0 = target.serverCpuNanos();
        THREADS.resetPeakThreadCount();
        long cpu0 = OS.getProcessCpuTime();
        long[] jitGc0 = ProcStats.jitAndGcCpuNanos();
        long allocated0 = allocatedBytes();
        long t0 = System.nanoTime();
        long[] resumed = new long[1];
        List<Object> results = flow ? runFlows(tasks, resumed) : runThreads(tasks, mode.startsWith("virtual"));
        long wall = System.nanoTime() - t0;
        long cpu = OS.getProcessCpuTime() - cpu0;
        long[] jitGc = ProcStats.jitAndGcCpuNanos();
        long allocated = allocated0 < 0 ? -1 : allocatedBytes() - allocated0;
        boolean split = jitGc0[0] >= 0 && jitGc[0] >= 0;
        long serverCpu = target.serverCpuNanos();
        int peak = THREADS.getPeakThreadCount();
        int failures = 0;
        for (Object r : results) {
            if (!expected.equals(String.valueOf(r))) {
                failures++;
                if (failures <= 3) {
                    out.println("unexpected result (" + library.id + ", " + mode + "): " + r
                            + (r instanceof Throwable ? " " + Arrays.toString(((Throwable) r).getStackTrace()) : ""));
                }
            }
        }
        int pinned = (int) Pins.warnings().stream().filter(library::names).count();
        return new Run(library, round, mode, wall / 1e6, cpu / 1e6,
                serverCpu0 < 0 || serverCpu < 0 ? -1 : (serverCpu - serverCpu0) / 1e6, peak, resumed[0], pinned,
                OS.getSystemLoadAverage(), failures, split ? (jitGc[0] - jitGc0[0]) / 1e6 : -1,
                split ? (jitGc[1] - jitGc0[1]) / 1e6 : -1, allocated < 0 ? -1 : allocated / 1e6,
                tasks.get(0).getClass().getClassLoader() instanceof ContinuationClassLoader);
    }

    private static Method totalAllocated() {
        try {
            Method m = com.sun.management.ThreadMXBean.class.getMethod("getTotalThreadAllocatedBytes");
            return THREADS instanceof com.sun.management.ThreadMXBean && (long) m.invoke(THREADS) >= 0 ? m : null;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    /**
     * The bytes allocated so far by every thread of this JVM, live or ended ({@code
     * com.sun.management.ThreadMXBean.getTotalThreadAllocatedBytes()}, JDK 21+), or -1.
     */
    private static long allocatedBytes() {
        if (TOTAL_ALLOCATED == null) {
            return -1;
        }
        try {
            return (long) TOTAL_ALLOCATED.invoke(THREADS);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return -1;
        }
    }

    private List<Object> runFlows(List<Callable<?>> tasks, long[] resumed) throws Exception {
        try (FlowScheduler scheduler = FlowScheduler.builder().workers(workers).policy(policy)
                .maxPinnedThreads(maxPinnedThreads).name("library-sessions").build()) {
            List<FlowHandle<?>> handles = new ArrayList<>();
            for (Callable<?> t : tasks) {
                handles.add(scheduler.submit(t));
            }
            List<Object> results = new ArrayList<>();
            for (FlowHandle<?> h : handles) {
                results.add(resultOf(h.toCompletionStage().toCompletableFuture()));
            }
            resumed[0] = scheduler.stats().resumed();
            return results;
        }
    }

    private static List<Object> runThreads(List<Callable<?>> tasks, boolean virtual) throws Exception {
        List<CompletableFuture<Object>> futures = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (Callable<?> t : tasks) {
            CompletableFuture<Object> f = new CompletableFuture<>();
            Runnable body = () -> {
                try {
                    f.complete(t.call());
                } catch (Throwable e) {
                    f.completeExceptionally(e);
                }
            };
            Thread thread = virtual ? VirtualThreads.unstarted(body) : new Thread(body);
            // The session's own loader, as a flow has its task's: the library's service lookups (Jakarta Mail's
            // StreamProvider) find its classes, not the system class loader's copies.
            thread.setContextClassLoader(t.getClass().getClassLoader());
            thread.start();
            threads.add(thread);
            futures.add(f);
        }
        List<Object> results = new ArrayList<>();
        for (CompletableFuture<Object> f : futures) {
            results.add(resultOf(f));
        }
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        }
        return results;
    }

    private static Object resultOf(CompletableFuture<?> f) throws InterruptedException {
        try {
            return f.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException e) {
            return e;
        }
    }

    /** Per library, the medians of the measured rounds of each mode and their ratios to virtual threads. */
    void summary() {
        Map<Library, Map<String, List<Run>>> by = new LinkedHashMap<>();
        for (Run r : runs) {
            if (r.round() > 0) {
                by.computeIfAbsent(r.library(), k -> new LinkedHashMap<>()).computeIfAbsent(r.mode(), k -> new ArrayList<>())
                        .add(r);
            }
        }
        out.println("medians | library | mode | wall ms | client CPU ms | server CPU ms | peak threads | wall / virtual"
                + " | CPU / virtual | resumptions per session | JIT CPU ms | GC CPU ms | CPU less JIT and GC / virtual's"
                + " | allocated MB");
        for (Map.Entry<Library, Map<String, List<Run>>> e : by.entrySet()) {
            List<Run> vt = e.getValue().get("virtual");
            for (Map.Entry<String, List<Run>> m : e.getValue().entrySet()) {
                List<Run> rs = m.getValue();
                double wall = median(rs, Run::wallMs);
                double cpu = median(rs, Run::cpuMs);
                double serverCpu = median(rs, Run::serverCpuMs);
                double own = median(rs, Run::ownCpuMs);
                out.printf(Locale.ROOT, "medians | %s | %s | %.0f | %.0f | %s | %.0f | %s | %s | %s | %s | %s | %s | %s%n",
                        e.getKey().id, m.getKey(), wall, cpu, whole(serverCpu),
                        median(rs, r -> r.peakThreads()),
                        vt == null ? "-" : String.format(Locale.ROOT, "%.2f", wall / median(vt, Run::wallMs)),
                        vt == null ? "-" : String.format(Locale.ROOT, "%.2f", cpu / median(vt, Run::cpuMs)),
                        isFlow(m.getKey())
                                ? String.format(Locale.ROOT, "%.1f", median(rs, r -> r.resumptions()) / sessions) : "-",
                        whole(median(rs, Run::jitCpuMs)), whole(median(rs, Run::gcCpuMs)),
                        vt == null || own < 0 ? "-"
                                : String.format(Locale.ROOT, "%.2f", own / median(vt, Run::ownCpuMs)),
                        whole(median(rs, Run::allocatedMb)));
            }
        }
    }

    /** {@code v} rounded to a whole number, or "-" if negative (unknown). */
    private static String whole(double v) {
        return v < 0 ? "-" : String.format(Locale.ROOT, "%.0f", v);
    }

    static double median(List<Run> rs, java.util.function.ToDoubleFunction<Run> f) {
        double[] v = rs.stream().mapToDouble(f).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /** The server of a library's sessions, and how to make one session. */
    abstract static class Target implements AutoCloseable {

        /**
         * A new session of {@code id}: of the client class as loaded by {@code classes}, over {@code flowSockets} (a
         * Flow factory) or, if {@code null}, the JDK's sockets.
         */
        abstract Callable<?> session(ClassLoader classes, SocketFactory flowSockets, String id) throws Exception;

        /** The server's CPU time so far, or -1 if not known. */
        abstract long serverCpuNanos();

        static Target start(Library library, Mode serverMode, int workers, int sessions, PrintStream log)
                throws IOException, InterruptedException {
            if (library.protocol == null) {
                return new Postgres(library, PostgresServer.start(sessions + 10));
            }
            ServerProcess server = ServerProcess.start(serverMode, library.protocol, workers, null, SERVER_JVM_ARGS, log);
            if (server == null) {
                throw new IllegalStateException("server mode " + serverMode.id() + " cannot run on JDK " + Runtime.version());
            }
            return new Sample(library, server);
        }

        static Class<?> clientClass(Library library, ClassLoader classes) throws ClassNotFoundException {
            return Class.forName(library.clientClass, true, classes);
        }
    }

    /** A sample server in its own JVM; the sessions' sockets from the JDK or {@link FlowSocketFactory}. */
    private static final class Sample extends Target {
        private final Library library;
        private final ServerProcess server;
        private final InetSocketAddress address;

        Sample(Library library, ServerProcess server) {
            this.library = library;
            this.server = server;
            this.address = new InetSocketAddress("127.0.0.1", server.port());
        }

        @Override
        Callable<?> session(ClassLoader classes, SocketFactory flowSockets, String id) throws Exception {
            SocketFactory sockets = flowSockets != null ? flowSockets : SocketFactory.getDefault();
            Class<?> c = clientClass(library, classes);
            if (library == Library.SMTP) {
                return (Callable<?>) c.getConstructor(SocketFactory.class, InetSocketAddress.class, InetSocketAddress.class,
                        String.class).newInstance(sockets, address, null, id);
            }
            if (library == Library.JAKARTA_MAIL) {
                // Jakarta Mail makes its factory from a class name: FlowSocketFactory's, over the default connector.
                String factory = (flowSockets != null ? FlowSocketFactory.class : SocketFactory.class).getName();
                return (Callable<?>) c.getConstructor(String.class, InetSocketAddress.class, InetSocketAddress.class,
                        String.class).newInstance(factory, address, null, id);
            }
            return (Callable<?>) c.getConstructor(SocketFactory.class, InetSocketAddress.class, String.class)
                    .newInstance(sockets, address, id);
        }

        @Override
        long serverCpuNanos() {
            return ProcStats.of(server.pid()).cpuNanos;
        }

        @Override
        public void close() {
            server.close();
        }
    }

    /** PostgreSQL from Maven Central binaries; pgjdbc's sockets from the JDK or, by name, {@link FlowSocketFactory}. */
    private static final class Postgres extends Target {
        private final Library library;
        private final PostgresServer server;

        Postgres(Library library, PostgresServer server) {
            this.library = library;
            this.server = server;
        }

        @Override
        Callable<?> session(ClassLoader classes, SocketFactory flowSockets, String id) throws Exception {
            // pgjdbc makes its factory from a class name: FlowSocketFactory's, over the default connector.
            boolean flow = flowSockets != null;
            Class<?> c = clientClass(library, classes);
            if (library == Library.PGJDBC_QUERIES || library == Library.PGJDBC_SELECTS) {
                Object connection = Class.forName(Library.PGJDBC.clientClass, true, classes)
                        .getMethod("connect", String.class, boolean.class).invoke(null, server.jdbcUrl(), flow);
                return (Callable<?>) c.getConstructor(Connection.class, String.class).newInstance(connection, id);
            }
            return (Callable<?>) c.getConstructor(String.class, String.class, boolean.class)
                    .newInstance(server.jdbcUrl(), id, flow);
        }

        @Override
        long serverCpuNanos() {
            return ProcStats.treeCpuNanos(server.pid());
        }

        @Override
        public void close() throws IOException, InterruptedException {
            server.close();
        }
    }
}
