package dev.flow.bench.load;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Runs the load scenarios, one server JVM per measurement (this JVM is the client), and writes CSV,
 * Markdown and PNG charts to {@code --out} (default {@code results/load}).
 *
 * <pre>
 * java -cp benchmarks.jar dev.flow.bench.load.LoadSuite --scenarios=echo,interleaved,pollers,sleepers
 *      [--modes=sync,continuation-immediately,continuation-io,continuation-after1ms,continuation-adaptive,mina,virtual]
 *      [--connections=1,100,1000,10000] [--warmup-s=2] [--steady-s=5]
 *      [--interleave=continuation-immediately,continuation-io,mina,virtual,sync] [--rounds=3] [--interleave-connections=1000]
 *      [--pollers=5000] [--poller-modes=sync,continuation-immediately,virtual,mina]
 *      [--sleepers=1000,10000,100000,1000000] [--sleeper-modes=continuation,virtual,platform]
 *      [--server-java=PATH] [--out=results/load]
 * </pre>
 *
 * Every measurement prints its validity checks; an invalid run is reported as such (INVALID RUN ...)
 * in the console, the CSV and the Markdown, and makes the exit code 1. A run stopped by a limit
 * prints the limit and the value that would be needed.
 */
public final class LoadSuite {

    private final Args a;
    private final Path out;
    private final String serverJava;
    private final String serverJvm;
    private final int workers;
    private final PrintStream log = System.out;
    private int invalid;

    private LoadSuite(Args a) {
        this.a = a;
        this.out = Path.of(a.get("out", "results/load"));
        this.serverJava = a.get("server-java", null);
        this.serverJvm = a.get("server-jvm-args", ServerProcess.DEFAULT_JVM_ARGS);
        this.workers = a.getInt("workers", 2);
    }

    public static void main(String[] args) throws Exception {
        Args a = new Args(args);
        LoadSuite s = new LoadSuite(a);
        List<String> scenarios = a.getList("scenarios", "echo,interleaved,pollers,sleepers");
        LoadClient.Config base = LoadClient.config(a);
        List<String> modes = a.getList("modes", "sync,continuation-immediately,continuation-io,continuation-after1ms,continuation-adaptive,mina,virtual");
        List<Integer> conns = a.getInts("connections", "1,100,1000,10000");
        List<String> inter = a.getList("interleave", "continuation-immediately,continuation-io,mina,virtual,sync");
        int rounds = a.getInt("rounds", 3);
        int interConns = a.getInt("interleave-connections", 1000);
        List<Integer> pollers = a.getInts("pollers", "5000");
        List<String> pollerModes = a.getList("poller-modes", "sync,continuation-immediately,virtual,mina");
        double pollerThink = a.getDouble("poller-think-ms", 5000);
        List<Integer> sleepers = a.getInts("sleepers", "1000,10000,100000,1000000");
        List<String> sleeperModes = a.getList("sleeper-modes", "continuation,virtual,platform");
        boolean charts = !a.getBool("no-charts");
        a.checkAllUsed();
        Files.createDirectories(s.out);
        long t0 = System.nanoTime();
        s.log.println("# load suite: JDK " + Runtime.version() + ", " + Runtime.getRuntime().availableProcessors()
                + " CPUs shared by client and server; results in " + s.out.toAbsolutePath());
        for (String sc : scenarios) {
            switch (sc) {
                case "echo":
                    s.echo(base, modes, conns);
                    break;
                case "interleaved":
                    s.interleaved(base, inter, rounds, interConns);
                    break;
                case "pollers":
                    s.pollers(base, pollerModes, pollers, pollerThink);
                    break;
                case "sleepers":
                    s.sleepers(sleeperModes, sleepers);
                    break;
                default:
                    throw new IllegalArgumentException("scenario: " + sc + " (expected: echo, interleaved, pollers, sleepers)");
            }
        }
        if (charts) {
            Report.generate(s.out, s.log);
        }
        s.log.printf(Locale.ROOT, "# suite done in %.0f s; %d invalid run(s)%n", (System.nanoTime() - t0) / 1e9, s.invalid);
        if (s.invalid > 0) {
            System.err.println("SUITE FAILED: " + s.invalid + " run(s) failed a validity check (see INVALID RUN above)");
        }
        System.exit(s.invalid > 0 ? 1 : 0);
    }

    private LoadResult measure(Mode mode, LoadClient.Config c) throws Exception {
        String why = mode.unavailableReason();
        if (why != null) {
            log.println(why);
            return null;
        }
        long fd = ProcStats.openFilesLimit();
        if (fd > 0 && c.connections + 300 > fd) {
            LoadResult r = new LoadResult();
            r.mode = mode.id();
            r.connections = c.connections;
            r.limit = "open files per process: limit " + fd + ", needed about " + (c.connections + 300)
                    + " in each of the client and server JVMs";
            log.println(r.report());
            return r;
        }
        log.println("## " + mode + ": " + c.describe());
        try (ServerProcess sp = ServerProcess.start(mode, workers, serverJava, serverJvm, log)) {
            if (sp == null) {
                return null;
            }
            LoadResult r = LoadClient.run(c, sp.port(), sp.pid(), log);
            r.mode = mode.id();
            log.print(r.report());
            if (!r.valid() && r.limit == null) {
                invalid++;
                System.err.println("INVALID RUN (" + mode + ", " + c.connections + " connections): " + r.failures());
            }
            return r;
        }
    }

    private LoadClient.Config copy(LoadClient.Config b, int connections, double thinkMs) {
        LoadClient.Config c = new LoadClient.Config();
        c.connections = connections;
        c.thinkMs = thinkMs;
        c.rate = b.rate;
        c.warmupS = b.warmupS;
        c.steadyS = b.steadyS;
        c.rampdownS = b.rampdownS;
        c.ioThreads = b.ioThreads;
        c.payload = b.payload;
        c.timeoutS = b.timeoutS;
        c.maxOutstanding = b.maxOutstanding;
        c.littleTolerance = b.littleTolerance;
        c.fairnessMin = b.fairnessMin;
        c.progress = b.progress;
        return c;
    }

    private Path csv(String name, String header) throws IOException {
        Path p = out.resolve(name);
        Files.writeString(p, header + "\n", StandardCharsets.UTF_8);
        return p;
    }

    private static void append(Path p, String line) throws IOException {
        Files.writeString(p, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }

    private void echo(LoadClient.Config base, List<String> modes, List<Integer> conns) throws Exception {
        Path p = csv("echo.csv", LoadResult.csvHeader());
        for (int n : conns) {
            for (String m : modes) {
                LoadResult r = measure(Mode.parse(m), copy(base, n, base.thinkMs));
                if (r != null) {
                    append(p, r.csv("echo", 1));
                }
            }
        }
    }

    private void interleaved(LoadClient.Config base, List<String> modes, int rounds, int n) throws Exception {
        Path p = csv("interleaved.csv", LoadResult.csvHeader());
        for (int round = 1; round <= rounds; round++) {
            log.println("# interleaved round " + round + " of " + rounds + " at " + n + " connections: " + modes);
            for (String m : modes) {
                LoadResult r = measure(Mode.parse(m), copy(base, n, base.thinkMs));
                if (r != null) {
                    append(p, r.csv("interleaved", round));
                }
            }
        }
    }

    private void pollers(LoadClient.Config base, List<String> modes, List<Integer> ns, double thinkMs) throws Exception {
        Path p = csv("pollers.csv", LoadResult.csvHeader());
        for (int n : ns) {
            for (String m : modes) {
                LoadClient.Config c = copy(base, n, thinkMs);
                // a poller sends every 5 s: a window must hold several think times
                c.warmupS = Math.max(base.warmupS, thinkMs / 1000 + 1);
                c.steadyS = Math.max(base.steadyS, 3 * thinkMs / 1000);
                c.timeoutS = Math.max(base.timeoutS, thinkMs / 1000 * 2);
                LoadResult r = measure(Mode.parse(m), c);
                if (r != null) {
                    append(p, r.csv("pollers", 1));
                }
            }
        }
    }

    private void sleepers(List<String> modes, List<Integer> ns) throws Exception {
        Path p = csv("sleepers.csv", "mode,n,sleep_ms,wall_ms,overhead_ms,start_ms,heap_bytes_per_flow,rss_bytes_per_flow,status");
        String java = serverJava != null ? serverJava
                : System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        for (String m : modes) {
            boolean stopped = false;
            for (int n : ns) {
                if (stopped) {
                    append(p, m + "," + n + ",5000,,,,,,\"not run: a smaller N already failed\"");
                    continue;
                }
                String timing = runSleepers(java, m, n, false);
                String heap = timing.contains("wall_ms=") && !timing.contains("FAILED") ? runSleepers(java, m, n, true) : "";
                String status = timing.contains("LIMIT") ? timing.substring(timing.indexOf("LIMIT")) : timing.contains("SKIPPED") ? timing.substring(timing.indexOf("SKIPPED"))
                        : timing.contains("FAILED") ? timing.substring(timing.indexOf("FAILED")) : heap.contains("FAILED")
                        ? "heap " + heap.substring(heap.indexOf("FAILED")) : "ok";
                append(p, String.format(Locale.ROOT, "%s,%d,5000,%s,%s,%s,%s,%s,\"%s\"", m, n, field(timing, "wall_ms"),
                        field(timing, "overhead_ms"), field(timing, "start_ms"), field(heap, "heap_bytes_per_flow"),
                        field(heap, "rss_bytes_per_flow"), status.replace('"', '\'')));
                if (!status.equals("ok")) {
                    stopped = true;
                }
            }
        }
    }

    private static String field(String line, String key) {
        int i = line.indexOf(key + "=");
        if (i < 0) {
            return "";
        }
        int j = line.indexOf(' ', i);
        return line.substring(i + key.length() + 1, j < 0 ? line.length() : j);
    }

    private String runSleepers(String java, String mode, int n, boolean heap) throws Exception {
        List<String> cmd = new ArrayList<>(Arrays.asList(java, "-Xms4g", "-Xmx4g", "-XX:+UseG1GC", "-cp",
                System.getProperty("java.class.path"), Sleepers.class.getName(), "--mode=" + mode, "--n=" + n,
                "--workers=" + Math.max(workers, 2)));
        if (heap) {
            cmd.add("--heap");
        }
        log.println("## sleepers " + mode + " n=" + n + (heap ? " (heap)" : " (timing)"));
        Process pr = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String result = "";
        try (BufferedReader r = new BufferedReader(new InputStreamReader(pr.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                log.println("  " + line);
                if (line.startsWith("SLEEPERS")) {
                    result = line;
                }
            }
        }
        if (!pr.waitFor(300, TimeUnit.SECONDS)) {
            pr.destroyForcibly();
        }
        if (pr.exitValue() == 1) {
            invalid++;
            System.err.println("INVALID RUN (sleepers " + mode + " n=" + n + "): " + result);
        }
        return result;
    }
}
