package dev.flow.bench.soak;

import dev.flow.FlowStats;
import dev.flow.LineTooLongException;
import dev.flow.MemoryBudgetExceededException;
import dev.flow.Transport;
import dev.flow.TransportConfig;
import dev.flow.mina.SessionStats;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The soak program: a {@code FlowServer} running {@link dev.flow.bench.soak.handlers.SoakHandler} in
 * continuation mode (the server's default dispatch, {@code Dispatch.ADAPTIVE}; every flow resumed on the MINA
 * I/O threads with {@code --io-threads}, on the workers with {@code --dispatch-workers}; or sync mode, {@code --sync})
 * under a mixed load with faults, from client threads
 * in the same JVM on 127.0.0.1, for a bounded time. The clients ({@link Peer}): well-behaved echo
 * clients, slow peers (one byte per 100 ms: the line timeout must cut them), peers that reset in the
 * middle of a line or of a response, peers that stop reading (the write timeout must close their
 * session), over-long lines, batches of idle connections (the idle timeout must close them), peers
 * that declare a 1 GiB body and trickle it (the request timeout must close them, the heap must not
 * hold it), floods of connections reset at once (counted, not logged one by one) and peers that each
 * send a 4 MiB command the handler holds whole ({@code Transport.holdReads()}) until they end it, more of
 * them than the input budget's share for holds (the server must hold some and refuse the others, naming
 * the budget, and serve the rest). Restarts and the
 * final stop are graceful ({@code close(grace)}).
 * Every {@code --restart-every} seconds of load the server and its scheduler are closed under that load and a
 * new one is started on a new port; the time a restart takes is not load, and is not counted in {@code
 * --seconds} either, so a run makes the same number of restarts however slow the machine.
 *
 * <p>Every {@code --report-every} seconds and at the end it prints the scheduler's workers alive, the
 * flows lost (started minus completed and failed, checked when a generation is closed), the scheduler
 * and session counters, open file descriptors, threads and heap used after {@code System.gc()}. It
 * exits with 0 if nothing was lost, every worker stayed alive, every peer saw what it expected, and
 * file descriptors, threads and heap came back near their baseline (taken after a warm-up server was
 * started and closed); 1 otherwise, listing each problem; 2 for bad options.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.flow.bench.soak.Soak [--seconds 60] [--restart-every 20]
 *      [--report-every 5] [--workers 2 [--io-threads | --dispatch-workers] | --sync] [--scale 1] [--idle-batch 20]
 * </pre>
 *
 * <p>Threads: {@link #run} drives the run on the calling thread and starts its client threads, which
 * it joins before returning.
 */
public final class Soak {
    private static final long FD_SLACK = 16;
    /**
     * Held-memory commands a run must have tried before "none held" is a problem: a few may all meet a budget
     * that other attacks fill (a 5 s smoke on a loaded machine tried 2, both refused); the 60 s soaks try
     * hundreds.
     */
    private static final int HELD_TRIES_FOR_A_VERDICT = 8;
    private static final int THREAD_SLACK = 2;
    private static final long HEAP_SLACK_BYTES = 24L << 20;
    private static final Duration SETTLE = Duration.ofSeconds(20);
    /** How long the warm-up may try for one echo session that passes. */
    private static final Duration WARM_UP = Duration.ofSeconds(30);
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(15);
    private static final long CLIENT_JOIN_MS = 30_000;
    private static final int MAX_LISTED = 10;

    private final SoakOptions options;
    private final PrintStream out;
    private final TransportConfig config;
    private final Map<Peer, Peer.Tally> tallies = new EnumMap<>(Peer.class);
    private final List<String> problems = Collections.synchronizedList(new ArrayList<>());
    /** Incremented when a restart begins and when it ends: odd while the server is being replaced. */
    private final AtomicLong epoch = new AtomicLong();
    private final AtomicLong lineTooLong = new AtomicLong();
    private final AtomicLong otherFailures = new AtomicLong();
    private final AtomicLong budgetRefusals = new AtomicLong();
    /** Of the closed generations' schedulers: flows started, completed, failed, resumed; I/O loop hand-offs. */
    private final long[] closedFlows = new long[5];
    private final long[] closedSessions = new long[9];
    private long flowsLost;
    private long startNanos;
    private volatile Generation current;
    private volatile boolean stopping;

    private Soak(SoakOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
        this.config = TransportConfig.builder()
                .maxLineLength(options.maxLineLength)
                .lineTimeout(options.lineTimeout)
                .idleTimeout(options.idleTimeout)
                .writeTimeout(options.writeTimeout)
                .requestTimeout(options.requestTimeout)
                .build();
        for (Peer p : Peer.values()) {
            tallies.put(p, new Peer.Tally());
        }
    }

    /** Runs the soak; exit code 0 if it passed, 1 if it found a problem, 2 for bad options. */
    public static void main(String[] args) throws Exception {
        SoakOptions o;
        try {
            o = SoakOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        System.exit(run(o, System.out).isEmpty() ? 0 : 1);
    }

    /** Runs the soak with {@code options}, printing progress to {@code out}; returns the problems found, none if it passed. */
    public static List<String> run(SoakOptions options, PrintStream out) throws IOException, InterruptedException {
        return new Soak(options, out).run();
    }

    /** The mode and dispatch {@code o} run, for the first line of the report. */
    private static String mode(SoakOptions o) {
        if (o.sync) {
            return "sync";
        }
        switch (o.dispatch) {
            case IO_THREADS:
                return "continuation (I/O-thread dispatch)";
            case WORKERS:
                return "continuation (workers dispatch)";
            default:
                return "continuation";
        }
    }

    private List<String> run() throws IOException, InterruptedException {
        out.printf(Locale.ROOT, "soak: %s mode, %s, pid %d, JDK %s%n", mode(options), options,
                ProcessHandle.current().pid(), Runtime.version());
        out.printf(Locale.ROOT, "soak: limits maxLineLength=%d lineTimeout=%s idleTimeout=%s writeTimeout=%s "
                + "requestTimeout=%s maxSessions=%d inputBudget=%d MiB grace=%s, max heap %d MiB%n", options.maxLineLength,
                options.lineTimeout, options.idleTimeout, options.writeTimeout, options.requestTimeout, options.maxSessions,
                options.inputBudgetBytes >> 20, options.grace, Runtime.getRuntime().maxMemory() >> 20);
        Generation warmUp = startGeneration(0);
        warmUp(warmUp);
        problems.addAll(warmUp.closeAndCheck(options.grace, CLOSE_WAIT));
        Gauges before = Gauges.take();
        out.println("soak: baseline after a warm-up server: " + before);

        current = startGeneration(1);
        startNanos = System.nanoTime();
        List<Thread> clients = startClients();
        drive();
        stopping = true;
        joinClients(clients);
        closeGeneration(current);
        Gauges after = settle(before);
        report("end");
        check(before, after);
        summary(before, after);
        return new ArrayList<>(problems);
    }

    /**
     * Runs echo sessions against the warm-up server until one passes, for up to {@link #WARM_UP}: the first
     * session loads (in continuation mode instruments) the handler, and on a loaded machine that session met
     * the limits under test (at a load average of 30 the server closed it after 5 echoes, its idle timeout
     * being 2 s, or its peer's read waited 10 s in vain). A failed attempt is printed; none passing within
     * {@link #WARM_UP} is a problem.
     */
    private void warmUp(Generation g) throws InterruptedException {
        long deadline = System.nanoTime() + WARM_UP.toNanos();
        for (int attempt = 1; ; attempt++) {
            try {
                Peer.ECHO.runOnce(g.address, options, "warm-up");
                return;
            } catch (IOException | Peer.Unexpected e) {
                out.println("soak: warm-up attempt " + attempt + " failed: " + e + "; server " + g.server.stats());
                if (System.nanoTime() - deadline >= 0) {
                    problems.add("warm-up: no echo session passed in " + attempt + " attempts within " + WARM_UP.toSeconds()
                            + " s, the last: " + e.getMessage() + "; server " + g.server.stats());
                    return;
                }
            }
        }
    }

    private Generation startGeneration(int number) throws IOException {
        return Generation.start(number, options, config, this::handlerFailed);
    }

    private void handlerFailed(Transport t, Throwable e) {
        if (e instanceof LineTooLongException) {
            lineTooLong.incrementAndGet();
        } else if (e instanceof MemoryBudgetExceededException) {
            budgetRefusals.incrementAndGet();
        } else if (otherFailures.incrementAndGet() <= MAX_LISTED) {
            problems.add("handler failed unexpectedly on " + t.remoteAddress() + ": " + e);
        }
    }

    private List<Thread> startClients() {
        List<Thread> clients = new ArrayList<>();
        for (Peer p : Peer.values()) {
            for (int i = 0; i < p.threads * options.scale; i++) {
                String id = p.name().toLowerCase(Locale.ROOT) + "-" + i;
                Thread t = new Thread(() -> clientLoop(p, id), "soak-" + id);
                t.setDaemon(true);
                t.start();
                clients.add(t);
            }
        }
        return clients;
    }

    private void clientLoop(Peer p, String id) {
        Peer.Tally tally = tallies.get(p);
        try {
            for (long round = 0; !stopping; round++) {
                long epochAtStart = epoch.get();
                if ((epochAtStart & 1) != 0) {
                    // a restart is under way: wait for the next server
                    Thread.sleep(5);
                    continue;
                }
                try {
                    long cutMs = p.runOnce(current.address, options, id + "-" + round);
                    if (epoch.get() != epochAtStart) {
                        // the server may have closed the connections because it was closing, not by a limit
                        tally.cutByRestart.addAndGet(p.connectionsPerRound(options));
                    } else if (cutMs == Peer.REFUSED) {
                        tally.refused.incrementAndGet();
                    } else if (cutMs == Peer.TIMED_OUT) {
                        tally.timedOut.incrementAndGet();
                    } else {
                        tally.ok.addAndGet(p.connectionsPerRound(options));
                        tally.maxCutMs.accumulate(cutMs);
                    }
                    Thread.sleep(p.pauseMs);
                } catch (IOException | Peer.Unexpected e) {
                    if (epoch.get() != epochAtStart) {
                        tally.cutByRestart.incrementAndGet();
                    } else if (tally.bad.incrementAndGet() <= MAX_LISTED) {
                        problems.add(p + " peer " + id + ": " + e);
                    }
                    Thread.sleep(10);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void drive() throws IOException, InterruptedException {
        long end = startNanos + TimeUnit.SECONDS.toNanos(options.seconds);
        long reportEvery = TimeUnit.SECONDS.toNanos(options.reportEvery);
        long restartEvery = options.restartEvery == 0 ? Long.MAX_VALUE : TimeUnit.SECONDS.toNanos(options.restartEvery);
        long nextReport = startNanos + reportEvery;
        long nextRestart = options.restartEvery == 0 ? Long.MAX_VALUE : startNanos + restartEvery;
        while (true) {
            long now = System.nanoTime();
            if (now - end >= 0) {
                return;
            }
            if (now - nextRestart >= 0) {
                restart();
                // A restart is not load (the clients wait for the next server meanwhile): the run's seconds and
                // the next restart count load only. Else a slow restart (over 3 s beside 10 busy loops, load 28)
                // ended a 5 s run before its second restart, or left the next generation without load.
                long restarting = System.nanoTime() - now;
                end += restarting;
                nextReport += restarting;
                nextRestart += restartEvery + restarting;
            } else if (now - nextReport >= 0) {
                report(String.format(Locale.ROOT, "%3d s", TimeUnit.NANOSECONDS.toSeconds(now - startNanos)));
                nextReport += reportEvery;
            } else {
                long wake = Math.min(end, Math.min(nextReport, nextRestart));
                TimeUnit.NANOSECONDS.sleep(Math.max(1, wake - now));
            }
        }
    }

    private void restart() throws IOException, InterruptedException {
        Generation old = current;
        epoch.incrementAndGet();
        String load = old.scheduler == null ? "" : " active flows=" + old.scheduler.stats().active();
        out.printf(Locale.ROOT, "soak: closing generation %d under load: open sessions=%d%s%n", old.number,
                old.server.openSessions(), load);
        closeGeneration(old);
        current = startGeneration(old.number + 1);
        epoch.incrementAndGet();
        out.printf(Locale.ROOT, "soak: generation %d started on %s%n", current.number, current.address);
    }

    private void closeGeneration(Generation g) throws InterruptedException {
        checkWorkers(g);
        List<String> lost = g.closeAndCheck(options.grace, CLOSE_WAIT);
        problems.addAll(lost);
        if (g.scheduler != null) {
            FlowStats f = g.scheduler.stats();
            closedFlows[0] += f.started();
            closedFlows[1] += f.completed();
            closedFlows[2] += f.failed();
            closedFlows[3] += f.resumed();
            closedFlows[4] += f.ioLoopHandOffs();
            flowsLost += f.started() - f.completed() - f.failed();
        }
        SessionStats s = g.server.stats();
        long[] add = {s.accepted(), s.completed(), s.closedByPeer(), s.timedOut(), s.failed(), s.stopped(), s.rejected(),
            s.resets(), s.protocolErrors()};
        for (int i = 0; i < add.length; i++) {
            closedSessions[i] += add[i];
        }
        out.printf(Locale.ROOT, "soak: generation %d closed: %s%n", g.number, lost.isEmpty() ? "nothing lost" : lost);
    }

    private void checkWorkers(Generation g) {
        int alive = g.workersAlive();
        if (!g.workersRight(alive)) {
            problems.add("generation " + g.number + ": " + alive + " of " + g.workers() + " workers alive");
        }
    }

    private void report(String when) {
        Generation g = current;
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "[%s] gen %d", when, g.number));
        long started = closedFlows[0];
        long completed = closedFlows[1];
        long failed = closedFlows[2];
        long resumed = closedFlows[3];
        boolean open = !g.server.isClosed();
        if (g.scheduler != null) {
            FlowStats f = g.scheduler.stats();
            if (open) {
                checkWorkers(g);
                started += f.started();
                completed += f.completed();
                failed += f.failed();
                resumed += f.resumed();
            }
            b.append(String.format(Locale.ROOT, " | workers alive %d/%d | flows started=%d completed=%d failed=%d "
                    + "lost=%d | scheduler resumed=%d active=%d running=%d suspended=%d queued=%d", g.workersAlive(),
                    g.workers(), started, completed, failed, flowsLost, resumed, f.active(), f.running(), f.suspended(),
                    f.queued()));
        }
        SessionStats s = g.server.stats();
        b.append(String.format(Locale.ROOT, " | sessions open=%d accepted=%d timedOut=%d closedByPeer=%d failed=%d "
                + "stopped=%d", g.server.openSessions(), closedSessions[0] + (open ? s.accepted() : 0),
                closedSessions[3] + (open ? s.timedOut() : 0), closedSessions[2] + (open ? s.closedByPeer() : 0),
                closedSessions[4] + (open ? s.failed() : 0), closedSessions[5] + (open ? s.stopped() : 0)));
        b.append(" | ").append(Gauges.take());
        long ok = 0;
        long cut = 0;
        long bad = 0;
        for (Peer.Tally t : tallies.values()) {
            ok += t.ok.get();
            cut += t.cutByRestart.get();
            bad += t.bad.get();
        }
        b.append(String.format(Locale.ROOT, " | peers ok=%d cutByRestart=%d bad=%d", ok, cut, bad));
        out.println(b);
    }

    private void joinClients(List<Thread> clients) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLIENT_JOIN_MS);
        for (Thread t : clients) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (t.isAlive()) {
                problems.add("client thread " + t.getName() + " did not end within " + CLIENT_JOIN_MS + " ms");
            }
        }
    }

    /** Waits (bounded) for file descriptors and threads to come back near {@code before}; returns the last gauges. */
    private Gauges settle(Gauges before) throws InterruptedException {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        Gauges g = Gauges.take();
        while ((g.fds > before.fds + FD_SLACK || g.threads > before.threads + THREAD_SLACK)
                && System.nanoTime() - deadline < 0) {
            Thread.sleep(200);
            g = Gauges.take();
        }
        return g;
    }

    private void check(Gauges before, Gauges after) {
        if (flowsLost != 0) {
            problems.add(flowsLost + " flows lost");
        }
        if (tallies.get(Peer.RESET_FLOOD).ok.get() > 0 && closedSessions[7] == 0) {
            problems.add("resets: none counted in the session stats after " + tallies.get(Peer.RESET_FLOOD).ok.get()
                    + " connections reset by RESET_FLOOD peers");
        }
        Peer.Tally held = tallies.get(Peer.HELD_MEMORY);
        long heldTried = held.ok.get() + held.refused.get() + held.timedOut.get();
        if (held.ok.get() == 0 && heldTried >= HELD_TRIES_FOR_A_VERDICT) {
            problems.add("held memory: no command held and answered of " + heldTried + " (" + held.refused.get()
                    + " refused)");
        }
        if (held.refused.get() > budgetRefusals.get()) {
            problems.add("held memory: " + held.refused.get() + " commands refused or cut as peers saw it, but only "
                    + budgetRefusals.get() + " refused by the input budget");
        }
        if (after.fds > before.fds + FD_SLACK) {
            problems.add("fds: " + after.fds + " at the end (expected: <= " + (before.fds + FD_SLACK) + ", baseline "
                    + before.fds + ")");
        }
        if (after.threads > before.threads + THREAD_SLACK) {
            problems.add("threads: " + after.threads + " at the end (expected: <= " + (before.threads + THREAD_SLACK)
                    + ", baseline " + before.threads + ")");
        }
        if (after.heapBytes > before.heapBytes + HEAP_SLACK_BYTES) {
            problems.add(String.format(Locale.ROOT, "heap: %.1f MB after GC at the end (expected: <= %.1f MB, "
                    + "baseline %.1f MB)", after.heapBytes / 1e6, (before.heapBytes + HEAP_SLACK_BYTES) / 1e6,
                    before.heapBytes / 1e6));
        }
    }

    private void summary(Gauges before, Gauges after) {
        out.printf(Locale.ROOT, "soak: %d generations, %d s of load%n", current.number,
                TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNanos));
        if (!options.sync) {
            out.printf(Locale.ROOT, "soak: flows started=%d completed=%d failed=%d resumed=%d lost=%d I/O loop hand-offs=%d%n",
                    closedFlows[0], closedFlows[1], closedFlows[2], closedFlows[3], flowsLost, closedFlows[4]);
        }
        out.printf(Locale.ROOT, "soak: sessions accepted=%d completed=%d closedByPeer=%d timedOut=%d failed=%d "
                + "(line too long %d, input budget %d, other %d) stopped=%d rejected=%d; resets by peers=%d "
                + "protocol errors=%d%n",
                closedSessions[0], closedSessions[1], closedSessions[2], closedSessions[3], closedSessions[4],
                lineTooLong.get(), budgetRefusals.get(), otherFailures.get(), closedSessions[5], closedSessions[6], closedSessions[7],
                closedSessions[8]);
        for (Map.Entry<Peer, Peer.Tally> e : tallies.entrySet()) {
            Peer.Tally t = e.getValue();
            out.printf(Locale.ROOT, "soak: peer %-18s ok=%-7d cutByRestart=%-5d bad=%-3d%s%s%n", e.getKey(), t.ok.get(),
                    t.cutByRestart.get(), t.bad.get(), e.getKey() == Peer.HELD_MEMORY ? " refused=" + t.refused.get() + " timedOut=" + t.timedOut.get() : "",
                    t.maxCutMs.get() < 0 ? "" : " longest cut " + t.maxCutMs.get() + " ms");
        }
        out.println("soak: before " + before);
        out.println("soak: after  " + after);
        if (problems.isEmpty()) {
            out.println("soak: PASSED");
        } else {
            out.println("soak: FAILED, " + problems.size() + " problems:");
            synchronized (problems) {
                for (String p : problems) {
                    out.println("  " + p);
                }
            }
        }
    }
}
