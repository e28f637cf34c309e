package dev.flow.bench;

import com.sun.management.OperatingSystemMXBean;
import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.libraries.PostgresServer;
import dev.flow.loader.ContinuationClassLoader;
import flowtest.libraries.PgJdbcClient;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Many concurrent pgjdbc sessions against a real PostgreSQL (the {@code libraries} module's {@code PostgresServer}
 * and {@code PgJdbcClient}, from its test jar): each session runs the client's transcript (a temporary table,
 * prepared inserts and queries, two transactions, a batch, four server errors), and must return the same text as
 * a session run alone.
 *
 * <p>Modes, interleaved round by round: {@code threads} (a platform thread per session, pgjdbc loaded normally,
 * the JDK's sockets), {@code virtual} (a virtual thread per session, otherwise the same; JDK 21+) and {@code
 * continuation} (a flow per session on {@code --workers} workers, pgjdbc through a lenient {@code
 * ContinuationClassLoader}, sockets from {@code FlowSocketFactory}). Each mode runs twice: {@code connect}, where
 * the session also opens its connection (in continuation mode the connect pins: pgjdbc connects in a
 * constructor), and {@code queries}, over connections opened beforehand on the main thread (not timed). Reports
 * per run the wall time, this JVM's CPU time, its peak thread count and (continuation) the flows' resumptions; before that, how long one connect takes
 * alone (what a pinned connect holds a worker for). The first round warms up and is not reported.
 *
 * <p>Usage: {@code java -Xmx1g -cp benchmarks.jar dev.flow.bench.PgJdbcSessions [--sessions=200] [--workers=2]
 * [--rounds=3]}. Exits 0 when every session returned the expected text, 1 otherwise.
 */
public final class PgJdbcSessions {

    private static final String CLIENT = "flowtest.libraries.PgJdbcClient";
    private static final long WAIT_SECONDS = 300;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final OperatingSystemMXBean OS = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private final String url;
    private final int sessions;
    private final int workers;
    private final String expected;
    private final ContinuationClassLoader loader;
    private int failures;
    /** Resumptions of the last continuation run. */
    private long resumed;

    private PgJdbcSessions(String url, int sessions, int workers) throws Exception {
        this.url = url;
        this.sessions = sessions;
        this.workers = workers;
        this.expected = new PgJdbcClient(url, "s", false).call();
        this.loader = ContinuationClassLoader.builder().include("org.postgresql", "flowtest.libraries").build();
    }

    public static void main(String[] args) throws Exception {
        int sessions = 200;
        int workers = 2;
        int rounds = 3;
        for (String a : args) {
            String v = a.substring(a.indexOf('=') + 1);
            if (a.startsWith("--sessions=")) {
                sessions = Integer.parseInt(v);
            } else if (a.startsWith("--workers=")) {
                workers = Integer.parseInt(v);
            } else if (a.startsWith("--rounds=")) {
                rounds = Integer.parseInt(v);
            } else {
                throw new IllegalArgumentException("argument: " + a + " (expected: --sessions=N, --workers=N, --rounds=N)");
            }
        }
        boolean virtual = Runtime.version().feature() >= 21;
        System.out.printf(Locale.ROOT, "JDK %s, %d sessions, %d workers, %d rounds (+1 warm-up), load average %.2f%n",
                Runtime.version(), sessions, workers, rounds, OS.getSystemLoadAverage());
        int failures;
        try (PostgresServer postgres = PostgresServer.start(sessions + 10)) {
            PgJdbcSessions bench = new PgJdbcSessions(postgres.jdbcUrl(), sessions, workers);
            bench.connectAlone();
            List<String> modes = new ArrayList<>(List.of("threads", "continuation"));
            if (virtual) {
                modes.add(1, "virtual");
            }
            System.out.println("round | mode | phase | wall ms | JVM CPU ms | peak threads | resumptions | load average");
            for (int round = 0; round <= rounds; round++) {
                for (String phase : List.of("connect", "queries")) {
                    for (String mode : modes) {
                        bench.run(round, mode, phase);
                    }
                }
            }
            failures = bench.failures;
        }
        System.out.println(failures == 0 ? "every session returned the expected text" : failures + " sessions failed");
        System.exit(failures == 0 ? 0 : 1);
    }

    /** How long one connect takes with nothing else running: what a pinned connect holds its worker for. */
    private void connectAlone() throws Exception {
        for (boolean flowSockets : new boolean[] {false, true}) {
            double[] ms = new double[30];
            for (int i = -10; i < ms.length; i++) {
                long t0 = System.nanoTime();
                PgJdbcClient.connect(url, flowSockets).close();
                if (i >= 0) {
                    ms[i] = (System.nanoTime() - t0) / 1e6;
                }
            }
            Arrays.sort(ms);
            System.out.printf(Locale.ROOT, "one connect alone (%s sockets, plain thread): median %.2f ms, p90 %.2f ms, max %.2f ms%n",
                    flowSockets ? "Flow" : "JDK", ms[ms.length / 2], ms[ms.length * 9 / 10], ms[ms.length - 1]);
        }
    }

    private void run(int round, String mode, String phase) throws Exception {
        boolean flow = mode.equals("continuation");
        List<Connection> opened = new ArrayList<>();
        if (phase.equals("queries")) {
            Method connect = flow ? loader.loadClass(CLIENT).getMethod("connect", String.class, boolean.class) : null;
            for (int i = 0; i < sessions; i++) {
                opened.add(flow ? (Connection) connect.invoke(null, url, true) : PgJdbcClient.connect(url, false));
            }
        }
        List<Callable<?>> tasks = new ArrayList<>();
        for (int i = 0; i < sessions; i++) {
            String id = "r" + round + "s" + i;
            if (flow) {
                tasks.add(opened.isEmpty() ? loader.newInstance(Callable.class, CLIENT, url, id, true)
                        : loader.newInstance(Callable.class, CLIENT, opened.get(i), id));
            } else {
                tasks.add(opened.isEmpty() ? new PgJdbcClient(url, id, false) : new PgJdbcClient(opened.get(i), id));
            }
        }
        THREADS.resetPeakThreadCount();
        long cpu0 = OS.getProcessCpuTime();
        long t0 = System.nanoTime();
        List<Object> results = flow ? runFlows(tasks) : runThreads(tasks, mode.equals("virtual"));
        long wall = System.nanoTime() - t0;
        long cpu = OS.getProcessCpuTime() - cpu0;
        for (Object r : results) {
            if (!expected.equals(r)) {
                failures++;
                if (failures <= 3) {
                    System.out.println("unexpected result (" + mode + ", " + phase + "): " + r);
                }
            }
        }
        if (round > 0) {
            System.out.printf(Locale.ROOT, "%d | %s | %s | %.0f | %.0f | %d | %s | %.2f%n", round, mode, phase, wall / 1e6,
                    cpu / 1e6, THREADS.getPeakThreadCount(), flow ? Long.toString(resumed) : "-", OS.getSystemLoadAverage());
        }
    }

    private List<Object> runFlows(List<Callable<?>> tasks) throws Exception {
        try (FlowScheduler scheduler = FlowScheduler.builder().workers(workers).policy(SuspendPolicy.immediately())
                .name("pgjdbc-bench").build()) {
            List<FlowHandle<?>> handles = new ArrayList<>();
            for (Callable<?> t : tasks) {
                handles.add(scheduler.submit(t));
            }
            List<Object> out = new ArrayList<>();
            for (FlowHandle<?> h : handles) {
                out.add(resultOf(h.toCompletionStage().toCompletableFuture()));
            }
            resumed = scheduler.stats().resumed();
            return out;
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
            thread.start();
            threads.add(thread);
            futures.add(f);
        }
        List<Object> out = new ArrayList<>();
        for (CompletableFuture<Object> f : futures) {
            out.add(resultOf(f));
        }
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        }
        return out;
    }

    private static Object resultOf(CompletableFuture<?> f) throws Exception {
        try {
            return f.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            return e.getCause();
        }
    }
}
