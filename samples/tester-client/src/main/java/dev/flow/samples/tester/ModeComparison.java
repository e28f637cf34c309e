package dev.flow.samples.tester;

import dev.flow.Connector;
import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.loader.ContinuationClassLoader;
import dev.flow.mina.FlowConnector;
import dev.flow.samples.tester.client.TesterClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Runs the unmodified {@link TesterClient} in every mode against an embedded echo server and prints
 * a table: the 2008 experiment, reproduced.
 *
 * <p>Modes: sync (one thread per client), and continuation with the {@code immediately}, {@code
 * after(1 ms)} and adaptive policies. Rounds are interleaved (all modes, then all modes again) and
 * the table shows the median. Every run is bounded by its transaction count.
 */
public final class ModeComparison {

    private static final String CLIENT = "dev.flow.samples.tester.client.TesterClient";

    private ModeComparison() {
    }

    /** Options, validated once. */
    static final class Options {
        int transactions = 1000;
        int lines = 10;
        int threads = 1;
        int concurrency = 1;
        int workers = 1;
        int rounds = 5;
        long delayMs = 0;
        List<String> transports = List.of("vm", "tcp");
        List<String> modes = List.of("sync", "continuation", "after-1ms", "adaptive");
        boolean latency = true;
        int latencyTransactions = 300;
        int latencyDelayMs = 5;
        boolean warmUpSync = true;

        /**
         * The latency run: every echoed line delayed, sync on one thread (one transaction at a time)
         * against continuation on one worker with every transaction in flight.
         */
        Options latencyRun() {
            Options l = new Options();
            l.transactions = latencyTransactions;
            l.lines = 4;
            l.threads = 1;
            l.concurrency = latencyTransactions;
            l.workers = 1;
            l.rounds = 2;
            l.warmUpSync = false;
            l.delayMs = latencyDelayMs;
            l.transports = List.of("vm");
            l.modes = List.of("sync", "continuation");
            l.latency = false;
            return l;
        }

        static Options parse(String[] args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (a.equals("--help") || a.equals("-h")) {
                    usage();
                    System.exit(0);
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(a + ": missing value");
                }
                String v = args[++i];
                switch (a) {
                    case "--transactions": o.transactions = positive(a, v, 10_000_000); break;
                    case "--lines": o.lines = positive(a, v, 10_000); break;
                    case "--threads": o.threads = positive(a, v, 10_000); break;
                    case "--concurrency": o.concurrency = positive(a, v, 100_000); break;
                    case "--workers": o.workers = positive(a, v, 1024); break;
                    case "--rounds": o.rounds = positive(a, v, 100); break;
                    case "--delay-ms": o.delayMs = positive(a, v, 10_000) == 0 ? 0 : Long.parseLong(v); break;
                    case "--latency":
                        if (!v.equals("on") && !v.equals("off")) {
                            throw new IllegalArgumentException("--latency: " + v + " (expected: on or off)");
                        }
                        o.latency = v.equals("on");
                        break;
                    case "--latency-transactions": o.latencyTransactions = positive(a, v, 10_000); break;
                    case "--latency-delay-ms": o.latencyDelayMs = positive(a, v, 1000); break;
                    case "--transport":
                        o.transports = v.equals("both") ? List.of("vm", "tcp") : List.of(v);
                        for (String t : o.transports) {
                            if (!t.equals("vm") && !t.equals("tcp")) {
                                throw new IllegalArgumentException("--transport: " + v + " (expected: vm, tcp or both)");
                            }
                        }
                        break;
                    case "--modes":
                        o.modes = Arrays.asList(v.split(","));
                        for (String m : o.modes) {
                            if (!List.of("sync", "continuation", "after-1ms", "adaptive").contains(m)) {
                                throw new IllegalArgumentException("--modes: " + m
                                        + " (expected: sync, continuation, after-1ms, adaptive)");
                            }
                        }
                        break;
                    default:
                        throw new IllegalArgumentException("unknown option: " + a + " (see --help)");
                }
            }
            if (o.transactions % o.concurrency != 0 || o.transactions % o.threads != 0) {
                throw new IllegalArgumentException("--transactions: " + o.transactions
                        + " (expected: a multiple of --threads " + o.threads + " and --concurrency " + o.concurrency + ")");
            }
            return o;
        }

        private static int positive(String name, String v, int max) {
            int n;
            try {
                n = Integer.parseInt(v);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + ": " + v + " (expected: a number)");
            }
            int min = name.equals("--delay-ms") ? 0 : 1;
            if (n < min || n > max) {
                throw new IllegalArgumentException(name + ": " + v + " (expected: " + min + ".." + max + ")");
            }
            return n;
        }

        static void usage() {
            System.out.println("usage: ModeComparison [--transactions 1000] [--lines 10] [--threads 1] [--concurrency 1]"
                    + " [--workers 1] [--rounds 5] [--delay-ms 0] [--transport vm|tcp|both (default)]"
                    + " [--modes sync,continuation,after-1ms,adaptive] [--latency on|off] [--latency-transactions 300]"
                    + " [--latency-delay-ms 5]");
            System.out.println("  --threads: sync client threads; --concurrency: flows in flight on --workers scheduler threads;"
                    + " transactions are split evenly between the clients.");
            System.out.println("  --latency on (default): then a second table, every echoed line delayed --latency-delay-ms:"
                    + " sync on 1 thread vs continuation on 1 worker with all --latency-transactions (4 lines each) in flight.");
        }
    }

    /** One measured run. */
    static final class Run {
        final long wallNanos;
        final long events;
        final long suspensions;

        Run(long wallNanos, long events, long suspensions) {
            this.wallNanos = wallNanos;
            this.events = events;
            this.suspensions = suspensions;
        }
    }

    /** Entry point; see {@link Options#usage()}. */
    public static void main(String[] args) throws Exception {
        Options o;
        try {
            o = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            Options.usage();
            System.exit(2);
            return;
        }
        ContinuationClassLoader loader = ContinuationClassLoader.builder()
                .include("dev.flow.samples.tester.client").strict(true).build();
        print(o, measure(o, loader));
        if (o.latency) {
            Options l = o.latencyRun();
            System.out.println();
            System.out.println("What continuation mode buys: the same client when the peer takes " + l.delayMs
                    + " ms per line. Sync serves one transaction at a time on its thread; continuation keeps all "
                    + l.concurrency + " in flight on one worker, each suspended while it waits.");
            Map<String, List<Run>> r = measure(l, loader);
            print(l, r);
            double sync = medianMs(r.get("sync|vm"));
            double continuation = medianMs(r.get("continuation|vm"));
            System.out.printf(Locale.ROOT, "Continuation on 1 worker: %.0fx the throughput of sync on 1 thread (%.0f ms vs %.0f ms),"
                    + " %d suspensions per run; no thread per transaction.%n", sync / continuation, continuation, sync,
                    r.get("continuation|vm").get(0).suspensions);
        }
    }

    /** Runs a warm-up, then {@code o.rounds} interleaved rounds of every mode on every transport. */
    private static Map<String, List<Run>> measure(Options o, ContinuationClassLoader loader) throws Exception {
        System.out.printf(Locale.ROOT, "Flow mode comparison: %d transactions x %d lines (x2 events); sync on %d thread(s);"
                        + " continuation: %d flow(s) in flight on %d worker(s); delay %d ms per line; %d interleaved rounds"
                        + " after a warm-up; JDK %s, %d cores%n",
                o.transactions, o.lines, o.threads, o.concurrency, o.workers, o.delayMs, o.rounds,
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors());
        Map<String, List<Run>> results = new LinkedHashMap<>();
        int unit = lcm(o.threads, o.concurrency);
        try (FlowConnector connector = FlowConnector.builder().build()) {
            for (String transport : o.transports) {
                try (EchoServer server = transport.equals("vm")
                        ? EchoServer.inVm(Duration.ofMillis(o.delayMs)) : EchoServer.tcp(Duration.ofMillis(o.delayMs))) {
                    Connector target = connector.connector(server.address());
                    for (String mode : o.modes) {
                        if (o.warmUpSync || !mode.equals("sync")) {
                            run(mode, o, o.transactions / 10 / unit * unit + unit, target, loader);
                        }
                    }
                    for (int r = 0; r < o.rounds; r++) {
                        for (String mode : o.modes) {
                            results.computeIfAbsent(mode + "|" + transport, k -> new ArrayList<>())
                                    .add(run(mode, o, o.transactions, target, loader));
                        }
                    }
                }
            }
        }
        return results;
    }

    private static Run run(String mode, Options o, int transactions, Connector target, ContinuationClassLoader loader)
            throws Exception {
        if (mode.equals("sync")) {
            int perClient = transactions / o.threads;
            long start = System.nanoTime();
            long[] events = new long[o.threads];
            Throwable[] failure = new Throwable[1];
            List<Thread> threads = new ArrayList<>();
            for (int c = 0; c < o.threads; c++) {
                int idx = c;
                Thread t = new Thread(() -> {
                    try {
                        events[idx] = new TesterClient(target, perClient, o.lines, "client-" + idx).call();
                    } catch (Throwable e) {
                        failure[0] = e;
                    }
                }, "sync-client-" + c);
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join();
            }
            long wall = System.nanoTime() - start;
            if (failure[0] != null) {
                throw new IllegalStateException("sync run failed", failure[0]);
            }
            return new Run(wall, Arrays.stream(events).sum(), 0);
        }
        SuspendPolicy policy = mode.equals("after-1ms") ? SuspendPolicy.after(Duration.ofMillis(1))
                : mode.equals("adaptive") ? SuspendPolicy.adaptive() : SuspendPolicy.immediately();
        int perClient = transactions / o.concurrency;
        try (FlowScheduler scheduler = FlowScheduler.builder().workers(o.workers).policy(policy).name(mode).build()) {
            List<Callable<?>> clients = new ArrayList<>();
            for (int c = 0; c < o.concurrency; c++) {
                clients.add(loader.newInstance(Callable.class, CLIENT, target, perClient, o.lines, "client-" + c));
            }
            long start = System.nanoTime();
            List<FlowHandle<?>> handles = new ArrayList<>();
            for (Callable<?> c : clients) {
                handles.add(scheduler.submit(c));
            }
            long events = 0;
            for (FlowHandle<?> h : handles) {
                events += (Long) h.join();
            }
            long wall = System.nanoTime() - start;
            return new Run(wall, events, scheduler.stats().resumed());
        }
    }

    private static void print(Options o, Map<String, List<Run>> results) {
        String header = String.format(Locale.ROOT, "| %-12s | %-9s | %-7s | %9s | %12s | %9s | %9s | %8s | %8s | %11s | %11s |",
                "mode", "transport", "threads", "in flight", "transactions", "events", "wall ms", "µs/event", "vs sync", "suspensions",
                "wall min-max");
        System.out.println();
        System.out.println(header);
        System.out.println(header.replaceAll("[^|]", "-"));
        Map<String, Double> syncMedian = new LinkedHashMap<>();
        for (Map.Entry<String, List<Run>> e : results.entrySet()) {
            String[] k = e.getKey().split("\\|");
            double median = medianMs(e.getValue());
            if (k[0].equals("sync")) {
                syncMedian.put(k[1], median);
            }
        }
        for (Map.Entry<String, List<Run>> e : results.entrySet()) {
            String[] k = e.getKey().split("\\|");
            List<Run> runs = e.getValue();
            double median = medianMs(runs);
            Run any = runs.get(0);
            double min = runs.stream().mapToDouble(r -> r.wallNanos / 1e6).min().orElse(0);
            double max = runs.stream().mapToDouble(r -> r.wallNanos / 1e6).max().orElse(0);
            Double sync = syncMedian.get(k[1]);
            String threads = k[0].equals("sync") ? String.valueOf(o.threads) : String.valueOf(o.workers);
            String inFlight = k[0].equals("sync") ? String.valueOf(o.threads) : String.valueOf(o.concurrency);
            System.out.printf(Locale.ROOT, "| %-12s | %-9s | %7s | %9s | %12d | %9d | %9.1f | %8.2f | %8s | %11d | %11s |%n",
                    k[0], k[1], threads, inFlight, o.transactions, any.events, median, median * 1000 / any.events,
                    sync == null ? "-" : String.format(Locale.ROOT, median / sync < 0.1 ? "%.4fx" : "%.2fx", median / sync),
                    any.suspensions, String.format(Locale.ROOT, "%.0f-%.0f", min, max));
        }
        System.out.println();
        System.out.println("threads: client threads (sync) or scheduler workers (continuation); in flight: transactions"
                + " running at once; suspensions: per run; wall ms: median of the rounds.");
    }

    private static int lcm(int a, int b) {
        int x = a;
        int y = b;
        while (y != 0) {
            int t = x % y;
            x = y;
            y = t;
        }
        return a / x * b;
    }

    private static double medianMs(List<Run> runs) {
        double[] v = runs.stream().mapToDouble(r -> r.wallNanos / 1e6).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
