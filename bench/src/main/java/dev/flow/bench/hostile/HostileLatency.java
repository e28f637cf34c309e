package dev.flow.bench.hostile;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;

/**
 * Measures a good keep-alive client's request latency against the HTTP sample ({@code
 * dev.flow.samples.http.HttpServer}, started in a child JVM with {@code -Xmx64m}) first alone, then
 * during each hostile attack of issue 14 in turn: held declared-length heads, a connect-then-reset
 * flood, byte-a-time tricklers and idle connections. Prints, per server mode and phase, p50, p99, max,
 * requests completed, errors and the ratio of p99 to the unloaded p99, as a Markdown table; with {@code
 * --rounds N}, the modes are run N times in turn (interleaved) and a second table gives each phase's
 * medians over the rounds.
 *
 * <p>Besides the sample's three modes, two baselines run the same session class ({@code HttpSession},
 * loaded normally) on a plain {@code ServerSocket} with blocking sockets ({@code
 * dev.flow.bench.load.LoadServer --protocol=http}): {@code baseline-blocking}, a platform thread per
 * connection, and {@code baseline-virtual}, a virtual thread per connection (JDK 21+). The attack {@code
 * external-reset-flood} runs {@link dev.flow.bench.hostile.ResetFlood} in a JVM of its own for the
 * length of the phase. Each row ends with the machine's load average at the end of the phase.
 *
 * <p>Loopback only; every loop is bounded in count and time. The good client connects before each
 * attack starts (an established session) and sends one {@code GET /} at a time on that connection,
 * paced at {@code --interval-us}; its latency is measured from the send
 * of each request to the end of its response (not corrected for coordinated omission). The attackers
 * and the good client run in this JVM. Separately, one new connection is opened 200 ms into each attack
 * and the time to its first response (accept included) is reported. Run {@code --help} for the options.
 *
 * <p>Single-threaded entry point; each attack runs its own threads and stops them before the next phase.
 */
public final class HostileLatency {

    static final String SERVER_MAIN = "dev.flow.samples.http.HttpServer";
    /** The baselines' server: the same session class on blocking sockets, a thread per connection. */
    static final String BASELINE_MAIN = "dev.flow.bench.load.LoadServer";
    private static final String LISTENING = "listening on 127.0.0.1:";
    private static final String BASELINE_LISTENING = "LISTENING ";
    private static final int CONNECT_TIMEOUT_MS = 5_000;
    private static final int READ_TIMEOUT_MS = 10_000;

    private HostileLatency() {
    }

    /** Runs the measurement with {@code args} (see {@code --help}) and prints the table to standard output. */
    public static void main(String[] args) throws Exception {
        Options o;
        try {
            o = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        if (o.help) {
            System.out.println(Options.HELP);
            return;
        }
        List<Row> rows = run(o, System.out);
        System.out.println();
        System.out.println(table(rows));
        if (o.rounds > 1) {
            System.out.println(medians(rows));
        }
    }

    /** Runs every mode and phase of {@code o}, logging progress to {@code log}; returns one row per phase. */
    static List<Row> run(Options o, PrintStream log) throws IOException, InterruptedException {
        List<Row> rows = new ArrayList<>();
        for (int round = 1; round <= o.rounds; round++) {
            for (String mode : o.modes) {
                rows.addAll(runMode(o, mode, round, log));
            }
        }
        return rows;
    }

    /** Runs every phase of {@code o} against a new server in {@code mode}; one row per phase. */
    private static List<Row> runMode(Options o, String mode, int round, PrintStream log)
            throws IOException, InterruptedException {
        List<Row> rows = new ArrayList<>();
        try (Server server = Server.start(o.java, mode, o.maxStarting, log)) {
            log.printf("%s: server pid %d on port %d%n", mode, server.process.pid(), server.port);
            Phase warm = measure(new GoodClient(server.port), server.port, o.warmup, o.intervalMicros, o.phaseSeconds);
            log.printf("%s: warm-up %d requests, %d errors%n", mode, warm.completed, warm.errors);
            double unloadedP99 = 0;
            for (String attack : o.attacks) {
                GoodClient good = new GoodClient(server.port);
                Attack a = Attack.start(attack, server.port, o);
                NewConnection fresh = NewConnection.start(server.port);
                Phase p;
                String detail;
                try {
                    p = measure(good, server.port, o.requests, o.intervalMicros, o.phaseSeconds);
                } finally {
                    detail = a.stop() + "; " + fresh.await() + loadAverage();
                }
                if (attack.equals("none")) {
                    unloadedP99 = p.histogram.getValueAtPercentile(99);
                }
                Row r = new Row(round, mode, attack, p, unloadedP99, detail);
                rows.add(r);
                log.println(r.markdown());
                if (!servedWithin(server.port, o.phaseSeconds)) {
                    log.printf("%s: not served within %d s after %s%n", mode, o.phaseSeconds, attack);
                }
            }
            log.printf("%s: server alive at the end: %s, %d lines printed%n", mode, server.process.isAlive(),
                    server.lines.size());
        }
        return rows;
    }

    /**
     * The Markdown table of the medians of {@code rows} over the rounds, per mode and phase in the order
     * first met: p50, p99, max and the ratio of p99 to the same round's unloaded p99 (each round's ratio
     * listed too), with the requests completed and the errors of all rounds.
     */
    static String medians(List<Row> rows) {
        Map<String, List<Row>> groups = new LinkedHashMap<>();
        for (Row r : rows) {
            groups.computeIfAbsent(r.mode + " | " + r.attack, k -> new ArrayList<>()).add(r);
        }
        StringBuilder b = new StringBuilder();
        b.append("| mode | phase | rounds | median p50 µs | median p99 µs | median max µs | median p99 / unloaded p99 "
                + "(each round) | completed | errors |\n");
        b.append("|---|---|---:|---:|---:|---:|---|---:|---:|\n");
        for (Map.Entry<String, List<Row>> e : groups.entrySet()) {
            List<Row> g = e.getValue();
            StringBuilder each = new StringBuilder();
            long completed = 0;
            long errors = 0;
            for (Row r : g) {
                each.append(each.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.2f", r.ratio()));
                completed += r.phase.completed;
                errors += r.phase.errors;
            }
            b.append(String.format(Locale.ROOT, "| %s | %d | %.0f | %.0f | %.0f | %.2f (%s) | %d | %d |%n", e.getKey(),
                    g.size(), median(g, r -> r.phase.histogram.getValueAtPercentile(50)),
                    median(g, r -> r.phase.histogram.getValueAtPercentile(99)),
                    median(g, r -> r.phase.histogram.getMaxValue()), median(g, Row::ratio), each, completed, errors));
        }
        return b.toString();
    }

    /** The median of {@code f} over {@code rows} (the mean of the middle two for an even count). */
    static double median(List<Row> rows, ToDoubleFunction<Row> f) {
        double[] v = rows.stream().mapToDouble(f).sorted().toArray();
        int n = v.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    /** The Markdown table of {@code rows}. */
    static String table(List<Row> rows) {
        StringBuilder b = new StringBuilder();
        b.append("| mode | phase | p50 µs | p99 µs | max µs | completed | errors | p99 / unloaded p99 | attack |\n");
        b.append("|---|---|---:|---:|---:|---:|---:|---:|---|\n");
        for (Row r : rows) {
            b.append(r.markdown()).append('\n');
        }
        return b.toString();
    }

    /**
     * Sends up to {@code requests} paced {@code GET /} on {@code client}'s keep-alive connection (connected
     * before the attack: an established session), for at most {@code seconds}; reconnects after an error.
     */
    static Phase measure(GoodClient client, int port, int requests, int intervalMicros, int seconds) {
        Histogram h = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
        int completed = 0;
        int errors = 0;
        long start = System.nanoTime();
        long deadline = start + TimeUnit.SECONDS.toNanos(seconds);
        GoodClient c = client;
        for (int i = 0; i < requests && System.nanoTime() - deadline < 0; i++) {
            long due = start + i * (long) intervalMicros * 1_000;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            try {
                if (c == null) {
                    c = new GoodClient(port);
                }
                long t0 = System.nanoTime();
                int status = c.get();
                long micros = (System.nanoTime() - t0) / 1_000;
                if (status == 200) {
                    h.recordValue(Math.min(micros, h.getHighestTrackableValue()));
                    completed++;
                } else {
                    errors++;
                }
            } catch (IOException e) {
                errors++;
                closeQuietly(c);
                c = null;
            }
        }
        closeQuietly(c);
        return new Phase(h, completed, errors);
    }

    private static boolean servedWithin(int port, int seconds) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() - deadline < 0) {
            try (GoodClient c = new GoodClient(port)) {
                if (c.get() == 200) {
                    return true;
                }
            } catch (IOException e) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            }
        }
        return false;
    }

    /**
     * One new connection opened 200 ms into an attack: the time from its connect to the end of its first
     * response, which includes the server's accept of it.
     */
    static final class NewConnection {
        private final Thread thread;
        private volatile String result = "new connection: not done";

        private NewConnection(int port) {
            thread = new Thread(() -> {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
                long t0 = System.nanoTime();
                try (GoodClient c = new GoodClient(port)) {
                    int status = c.get();
                    result = String.format(Locale.ROOT, "new connection: %d in %.1f ms", status, (System.nanoTime() - t0) / 1e6);
                } catch (IOException e) {
                    result = String.format(Locale.ROOT, "new connection: failed after %.1f ms (%s)", (System.nanoTime() - t0) / 1e6, e);
                }
            }, "new-connection");
            thread.setDaemon(true);
        }

        static NewConnection start(int port) {
            NewConnection n = new NewConnection(port);
            n.thread.start();
            return n;
        }

        String await() throws InterruptedException {
            thread.join(TimeUnit.SECONDS.toMillis(30));
            return result;
        }
    }

    static Socket connect(int port) throws IOException {
        Socket s = new Socket();
        try {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), CONNECT_TIMEOUT_MS);
            return s;
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /** "; load average N" with the machine's 1-minute load average (Linux), or "" where unknown. */
    static String loadAverage() {
        try {
            String[] f = new String(Files.readAllBytes(Paths.get("/proc/loadavg")), StandardCharsets.US_ASCII).split(" ");
            return "; load average " + f[0];
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /** {@code java}, or this JVM's {@code java} executable if {@code null}. */
    static String javaCommand(String java) {
        return java != null ? java : System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    }

    static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception e) {
                // nothing to do: it is being discarded
            }
        }
    }

    /** The command-line options. */
    static final class Options {
        static final String HELP = String.join("\n",
                "HostileLatency: a good HTTP client's latency against the HTTP sample under hostile peers (issue 14).",
                "Options (--name value or --name=value):",
                "  --modes LIST        sync,continuation,continuation-io-threads (default: these three), and the",
                "                      baselines baseline-blocking, baseline-virtual (JDK 21+)",
                "  --attacks LIST      none,content-length,reset-flood,trickle,idle (default: all; none is the",
                "                      unloaded baseline and must come first for the ratio), external-reset-flood",
                "  --rounds N          run all modes N times in turn and print the medians too (default 1, 1..20)",
                "  --requests N        good-client requests per phase (default 2000, 1..1000000)",
                "  --warmup N          unrecorded requests before the first phase (default 2000, 0..1000000)",
                "  --interval-us N     pacing of the good client's requests (default 1000, 0..1000000)",
                "  --phase-seconds N   time limit of a phase (default 30, 1..600)",
                "  --held N            content-length: connections holding a 1 MiB declared head (default 400)",
                "  --resets N          reset-flood, external-reset-flood: most connections reset (default 5000)",
                "  --flood-rate N      external-reset-flood: most resets a second, 0 = as fast as it can (default 0)",
                "  --flood-seconds N   external-reset-flood: its length, 0 = the phase's paced length + 2 s (default 0)",
                "  --tricklers N       trickle: peers sending one byte every 500 ms (default 200)",
                "  --idle N            idle: idle connections (default 1000)",
                "  --java PATH         the server's java executable (default: this JVM's)",
                "  --max-starting N    Flow servers: --max-starting-sessions N, 0 = the server's default (default 0)");
        private static final List<String> ALL_MODES = List.of("sync", "continuation", "continuation-io-threads");
        private static final List<String> KNOWN_MODES = List.of("sync", "continuation", "continuation-io-threads",
                "baseline-blocking", "baseline-virtual");
        private static final List<String> ALL_ATTACKS = List.of("none", "content-length", "reset-flood", "trickle", "idle");
        private static final List<String> KNOWN_ATTACKS = List.of("none", "content-length", "reset-flood", "trickle",
                "idle", "external-reset-flood");

        List<String> modes = ALL_MODES;
        List<String> attacks = ALL_ATTACKS;
        int requests = 2_000;
        int warmup = 2_000;
        int intervalMicros = 1_000;
        int phaseSeconds = 30;
        int held = 400;
        int resets = 5_000;
        int tricklers = 200;
        int idle = 1_000;
        int rounds = 1;
        int floodRate;
        int floodSeconds;
        String java;
        int maxStarting;
        boolean help;

        static Options parse(String... args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (a.equals("--help") || a.equals("-h")) {
                    o.help = true;
                    continue;
                }
                String name = a;
                String v;
                int eq = a.indexOf('=');
                if (eq >= 0) {
                    name = a.substring(0, eq);
                    v = a.substring(eq + 1);
                } else if (i + 1 < args.length) {
                    v = args[++i];
                } else {
                    throw new IllegalArgumentException(a + ": no value (expected: " + a + " VALUE; see --help)");
                }
                switch (name) {
                    case "--modes": o.modes = list(name, v, KNOWN_MODES); break;
                    case "--attacks": o.attacks = list(name, v, KNOWN_ATTACKS); break;
                    case "--rounds": o.rounds = number(name, v, 1, 20); break;
                    case "--flood-rate": o.floodRate = number(name, v, 0, 1_000_000); break;
                    case "--flood-seconds": o.floodSeconds = number(name, v, 0, 600); break;
                    case "--requests": o.requests = number(name, v, 1, 1_000_000); break;
                    case "--warmup": o.warmup = number(name, v, 0, 1_000_000); break;
                    case "--interval-us": o.intervalMicros = number(name, v, 0, 1_000_000); break;
                    case "--phase-seconds": o.phaseSeconds = number(name, v, 1, 600); break;
                    case "--held": o.held = number(name, v, 1, 5_000); break;
                    case "--resets": o.resets = number(name, v, 1, 100_000); break;
                    case "--tricklers": o.tricklers = number(name, v, 1, 5_000); break;
                    case "--idle": o.idle = number(name, v, 1, 10_000); break;
                    case "--java": o.java = v; break;
                    case "--max-starting": o.maxStarting = number(name, v, 0, Integer.MAX_VALUE); break;
                    default: throw new IllegalArgumentException("unknown option: " + name + " (see --help)");
                }
            }
            return o;
        }

        private static int number(String name, String v, int min, int max) {
            int n;
            try {
                n = Integer.parseInt(v);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + ": " + v + " (expected: an integer in " + min + ".." + max + ")");
            }
            if (n < min || n > max) {
                throw new IllegalArgumentException(name + ": " + n + " (expected: " + min + ".." + max + ")");
            }
            return n;
        }

        private static List<String> list(String name, String v, List<String> allowed) {
            List<String> out = new ArrayList<>();
            for (String s : v.split(",")) {
                String t = s.trim();
                if (!allowed.contains(t)) {
                    throw new IllegalArgumentException(name + ": " + t + " (expected: one or more of " + allowed + ")");
                }
                out.add(t);
            }
            return List.copyOf(out);
        }
    }

    /** The good client's results in one phase. */
    static final class Phase {
        final Histogram histogram;
        final int completed;
        final int errors;

        Phase(Histogram histogram, int completed, int errors) {
            this.histogram = histogram;
            this.completed = completed;
            this.errors = errors;
        }
    }

    /** One line of the table. */
    static final class Row {
        final int round;
        final String mode;
        final String attack;
        final Phase phase;
        final double unloadedP99;
        final String detail;

        Row(int round, String mode, String attack, Phase phase, double unloadedP99, String detail) {
            this.round = round;
            this.mode = mode;
            this.attack = attack;
            this.phase = phase;
            this.unloadedP99 = unloadedP99;
            this.detail = detail;
        }

        double ratio() {
            return unloadedP99 > 0 ? phase.histogram.getValueAtPercentile(99) / unloadedP99 : Double.NaN;
        }

        String markdown() {
            Histogram h = phase.histogram;
            return String.format(Locale.ROOT, "| %s | %s | %d | %d | %d | %d | %d | %.2f | %s |", mode, attack,
                    h.getValueAtPercentile(50), h.getValueAtPercentile(99), h.getMaxValue(), phase.completed,
                    phase.errors, ratio(), detail);
        }
    }

    /** A keep-alive HTTP/1.1 client sending one {@code GET /} at a time. Not thread-safe. */
    static final class GoodClient implements AutoCloseable {
        private static final byte[] REQUEST = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;

        GoodClient(int port) throws IOException {
            socket = connect(port);
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(READ_TIMEOUT_MS);
            in = new BufferedInputStream(socket.getInputStream());
            out = socket.getOutputStream();
        }

        int get() throws IOException {
            out.write(REQUEST);
            out.flush();
            String status = line();
            if (!status.startsWith("HTTP/1.1 ") || status.length() < 12) {
                throw new IOException("status line: " + status + " (expected: HTTP/1.1 ...)");
            }
            int length = 0;
            for (String h; !(h = line()).isEmpty(); ) {
                if (h.regionMatches(true, 0, "content-length:", 0, 15)) {
                    length = Integer.parseInt(h.substring(15).trim());
                }
            }
            if (in.readNBytes(length).length != length) {
                throw new IOException("body: end of stream before " + length + " bytes");
            }
            return Integer.parseInt(status.substring(9, 12));
        }

        private String line() throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream(64);
            for (int c; (c = in.read()) != '\n'; ) {
                if (c < 0) {
                    throw new IOException("end of stream in a response line");
                }
                if (c != '\r') {
                    b.write(c);
                }
            }
            return b.toString(StandardCharsets.US_ASCII);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /** One attack, started before a phase's measurement and stopped after it. */
    abstract static class Attack {
        /** Stops the attack, closes its connections and describes what it did. */
        abstract String stop() throws InterruptedException;

        static Attack start(String kind, int port, Options o) throws IOException, InterruptedException {
            switch (kind) {
                case "none": return new None();
                case "content-length": return Held.start(port, o.held);
                case "reset-flood": return InProcessFlood.start(port, o.resets);
                case "trickle": return Trickle.start(port, o.tricklers);
                case "idle": return Idle.start(port, o.idle);
                case "external-reset-flood": return ExternalFlood.start(port, o);
                default: throw new IllegalArgumentException("attack: " + kind);
            }
        }
    }

    private static final class None extends Attack {
        @Override
        String stop() {
            return "-";
        }
    }

    /** Connections that each send a head declaring a 1 MiB body, then nothing: held open. */
    private static final class Held extends Attack {
        private static final byte[] HEAD = ("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1048576\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        private final List<Socket> sockets = new ArrayList<>();
        private int failed;
        private final int wanted;

        private Held(int wanted) {
            this.wanted = wanted;
        }

        static Held start(int port, int n) {
            Held a = new Held(n);
            for (int i = 0; i < n; i++) {
                try {
                    Socket s = connect(port);
                    a.sockets.add(s);
                    s.getOutputStream().write(HEAD);
                    s.getOutputStream().flush();
                } catch (IOException e) {
                    a.failed++;
                }
            }
            return a;
        }

        @Override
        String stop() {
            int closedByServer = 0;
            for (Socket s : sockets) {
                try {
                    s.setSoTimeout(1);
                    s.getInputStream().read();
                    closedByServer++;
                } catch (SocketTimeoutException e) {
                    // still open, as the attacker wants
                } catch (IOException e) {
                    closedByServer++;
                }
                closeQuietly(s);
            }
            return String.format(Locale.ROOT, "%d/%d heads sent (%d failed), %d answered or closed by the server by the end",
                    sockets.size() - failed, wanted, failed, closedByServer);
        }
    }

    /** Threads that connect and reset (SO_LINGER 0) until stopped or {@code max} connections. */
    private static final class InProcessFlood extends Attack {
        private static final int THREADS = 2;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicInteger sent = new AtomicInteger();
        private final AtomicInteger failed = new AtomicInteger();
        private final List<Thread> threads = new ArrayList<>();
        private long startNanos;
        private volatile long capReachedNanos;

        static InProcessFlood start(int port, int max) {
            InProcessFlood a = new InProcessFlood();
            a.startNanos = System.nanoTime();
            for (int t = 0; t < THREADS; t++) {
                Thread th = new Thread(() -> {
                    while (a.running.get()) {
                        if (a.sent.get() + a.failed.get() >= max) {
                            a.capReachedNanos = System.nanoTime();
                            return;
                        }
                        try (Socket s = connect(port)) {
                            s.setSoLinger(true, 0);
                            a.sent.incrementAndGet();
                        } catch (IOException e) {
                            a.failed.incrementAndGet();
                        }
                    }
                }, "reset-flood-" + t);
                th.setDaemon(true);
                a.threads.add(th);
                th.start();
            }
            return a;
        }

        @Override
        String stop() throws InterruptedException {
            running.set(false);
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(30));
            }
            long end = capReachedNanos != 0 ? capReachedNanos : System.nanoTime();
            return String.format(Locale.ROOT, "%d resets (%d connects failed) in %.1f s%s", sent.get(), failed.get(),
                    (end - startNanos) / 1e9, capReachedNanos != 0 ? ", cap reached before the phase ended" : "");
        }
    }

    /**
     * {@link dev.flow.bench.hostile.ResetFlood} in a JVM of its own (this JVM's {@code java}), for the
     * length of the phase: the attacker shares the machine but not the good client's JVM. Starting
     * returns once it floods.
     */
    private static final class ExternalFlood extends Attack {
        private final Process process;
        private final List<String> lines = new CopyOnWriteArrayList<>();
        private final int seconds;

        private ExternalFlood(Process process, int seconds) {
            this.process = process;
            this.seconds = seconds;
        }

        static ExternalFlood start(int port, Options o) throws IOException, InterruptedException {
            int seconds = o.floodSeconds > 0 ? o.floodSeconds
                    : (int) Math.min(600, (long) o.requests * o.intervalMicros / 1_000_000 + 2);
            List<String> cmd = List.of(javaCommand(null), "-cp", System.getProperty("java.class.path"),
                    dev.flow.bench.hostile.ResetFlood.class.getName(), String.valueOf(port), String.valueOf(o.resets),
                    "2", String.valueOf(seconds), String.valueOf(o.floodRate));
            ExternalFlood a = new ExternalFlood(new ProcessBuilder(cmd).redirectErrorStream(true).start(), seconds);
            CountDownLatch flooding = new CountDownLatch(1);
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(a.process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    for (String l; (l = r.readLine()) != null; ) {
                        a.lines.add(l);
                        if (l.startsWith("flooding ")) {
                            flooding.countDown();
                        }
                    }
                } catch (IOException e) {
                    // the process ended
                } finally {
                    flooding.countDown();
                }
            }, "reset-flood-output");
            reader.setDaemon(true);
            reader.start();
            if (!flooding.await(30, TimeUnit.SECONDS)) {
                a.process.destroyForcibly();
                throw new IOException("reset flood " + cmd + " did not start within 30 s: " + a.lines);
            }
            return a;
        }

        @Override
        String stop() throws InterruptedException {
            if (!process.waitFor(seconds + 30L, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
            for (String l : lines) {
                if (l.startsWith("reset flood: ")) {
                    return "external " + l.substring("reset flood: ".length());
                }
            }
            return "external reset flood: no summary (" + lines + ")";
        }
    }

    /** Peers that send a request head one byte every 500 ms, never finishing it. */
    private static final class Trickle extends Attack {
        private static final byte[] PREFIX = "GET / HTTP/1.1\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII);
        private final List<Socket> sockets = new CopyOnWriteArrayList<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicInteger rounds = new AtomicInteger();
        private final AtomicInteger writeFailures = new AtomicInteger();
        private int failed;
        private Thread thread;

        static Trickle start(int port, int n) throws InterruptedException {
            Trickle a = new Trickle();
            for (int i = 0; i < n; i++) {
                try {
                    a.sockets.add(connect(port));
                } catch (IOException e) {
                    a.failed++;
                }
            }
            a.thread = new Thread(a::trickle, "trickle");
            a.thread.setDaemon(true);
            a.thread.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (a.rounds.get() < 2 && System.nanoTime() - deadline < 0) {
                Thread.sleep(50);
            }
            return a;
        }

        private void trickle() {
            List<Socket> open = new ArrayList<>(sockets);
            for (int i = 0; running.get(); i++) {
                long roundStart = System.nanoTime();
                for (java.util.Iterator<Socket> it = open.iterator(); it.hasNext(); ) {
                    Socket s = it.next();
                    try {
                        s.getOutputStream().write(i < PREFIX.length ? PREFIX[i] : 'a');
                    } catch (IOException e) {
                        writeFailures.incrementAndGet();
                        it.remove();
                    }
                }
                rounds.incrementAndGet();
                long rest = TimeUnit.MILLISECONDS.toNanos(500) - (System.nanoTime() - roundStart);
                if (rest > 0) {
                    LockSupport.parkNanos(rest);
                }
            }
        }

        @Override
        String stop() throws InterruptedException {
            running.set(false);
            LockSupport.unpark(thread);
            thread.join(TimeUnit.SECONDS.toMillis(30));
            for (Socket s : sockets) {
                closeQuietly(s);
            }
            return String.format(Locale.ROOT, "%d connected (%d failed), %d rounds of one byte, %d peers cut off",
                    sockets.size(), failed, rounds.get(), writeFailures.get());
        }
    }

    /** Connections that send nothing. */
    private static final class Idle extends Attack {
        private final List<Socket> sockets = new ArrayList<>();
        private int failed;

        static Idle start(int port, int n) {
            Idle a = new Idle();
            for (int i = 0; i < n; i++) {
                try {
                    a.sockets.add(connect(port));
                } catch (IOException e) {
                    a.failed++;
                }
            }
            return a;
        }

        @Override
        String stop() {
            for (Socket s : sockets) {
                closeQuietly(s);
            }
            return String.format(Locale.ROOT, "%d idle connected (%d failed)", sockets.size(), failed);
        }
    }

    /** The HTTP sample in a child JVM with a 64 MiB heap; its output is kept and its end awaited on close. */
    static final class Server implements AutoCloseable {
        final Process process;
        final int port;
        final List<String> lines;

        private Server(Process process, int port, List<String> lines) {
            this.process = process;
            this.port = port;
            this.lines = lines;
        }

        /** Starts the server of {@code mode}; a Flow server with {@code maxStarting} unless it is 0. */
        static Server start(String java, String mode, int maxStarting, PrintStream log) throws IOException, InterruptedException {
            List<String> cmd = new ArrayList<>();
            cmd.add(javaCommand(java));
            cmd.addAll(List.of("-Xmx64m", "-cp", System.getProperty("java.class.path")));
            cmd.addAll(mainAndArgs(mode));
            if (maxStarting > 0 && cmd.contains(SERVER_MAIN)) {
                cmd.addAll(List.of("--max-starting-sessions", String.valueOf(maxStarting)));
            }
            String firstByte = System.getenv("FLOW_FIRST_BYTE");
            if (firstByte != null && cmd.contains(SERVER_MAIN)) {
                // the first-byte wait of the HTTP sample (on by default): FLOW_FIRST_BYTE=0 turns it off, 1 on
                cmd.addAll(List.of("--client-speaks-first", String.valueOf("1".equals(firstByte))));
            }
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            List<String> lines = new CopyOnWriteArrayList<>();
            AtomicInteger port = new AtomicInteger(-1);
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String l; (l = r.readLine()) != null; ) {
                        lines.add(l);
                        log.println("  [server] " + l);
                        if (l.startsWith(LISTENING) && port.get() < 0) {
                            port.set(Integer.parseInt(l.substring(LISTENING.length()).trim()));
                        } else if (l.startsWith(BASELINE_LISTENING) && port.get() < 0) {
                            port.set(Integer.parseInt(l.substring(BASELINE_LISTENING.length()).split(" ")[0]));
                        }
                    }
                } catch (IOException e) {
                    // the process ended
                }
            }, "server-output");
            reader.setDaemon(true);
            reader.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (port.get() < 0 && p.isAlive() && System.nanoTime() - deadline < 0) {
                Thread.sleep(20);
            }
            if (port.get() < 0) {
                p.destroyForcibly();
                throw new IOException("server " + cmd + " printed no listening line within 60 s: " + lines);
            }
            return new Server(p, port.get(), lines);
        }

        /** The server's main class and arguments in {@code mode}. */
        static List<String> mainAndArgs(String mode) {
            switch (mode) {
                case "sync": return List.of(SERVER_MAIN, "--port", "0", "--mode", "sync");
                case "continuation": return List.of(SERVER_MAIN, "--port", "0", "--mode", "continuation", "--workers", "2");
                case "continuation-io-threads":
                    return List.of(SERVER_MAIN, "--port", "0", "--mode", "continuation", "--workers", "2", "--dispatch",
                            "io-threads");
                case "baseline-blocking": return List.of(BASELINE_MAIN, "--mode=sync", "--protocol=http");
                case "baseline-virtual": return List.of(BASELINE_MAIN, "--mode=virtual", "--protocol=http");
                default:
                    throw new IllegalArgumentException("mode: " + mode + " (expected: one of " + Options.KNOWN_MODES + ")");
            }
        }

        /** Sends SIGTERM, waits up to 20 s, then kills. */
        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
