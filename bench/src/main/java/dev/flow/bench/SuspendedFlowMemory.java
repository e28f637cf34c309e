package dev.flow.bench;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.FlowStats;
import dev.flow.bench.vt.VtParkedAtDepth3;
import dev.flow.loader.ContinuationClassLoader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.ObjectName;

/**
 * Heap retained per suspended flow, and per blocked virtual thread (JDK 21+).
 *
 * <p>Starts {@code count} (default 100,000) flows that each suspend at stack depth 3 ({@code
 * dev.flow.bench.flows.ParkedAtDepth3}: {@code call() -> l2 -> l3 -> future.join()}) on their own
 * never-yet-completed future, all futures created before the baseline is taken; measures the heap
 * used after forced GCs (the minimum of several readings) before and after; completes the futures
 * and checks that every flow finished with the right value and the scheduler is idle. Then the same
 * with virtual threads blocked in {@code future.join()} at depth 3. Each measurement runs {@code
 * --runs} times (default 3) and the last (warmed-up) run is the result. Prints a class histogram diff (what the bytes are).
 * Exits by itself: 0 when every check passed, 1 otherwise, 2 on the time limit (5 minutes).
 *
 * <p>Usage: {@code java -Xms2g -Xmx2g -cp benchmarks.jar dev.flow.bench.SuspendedFlowMemory
 * [count] [--runs=N] [--no-histogram]}
 */
public final class SuspendedFlowMemory {

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
    private static final String FLOW_CLASS = "dev.flow.bench.flows.ParkedAtDepth3";
    private static final long WAIT_NANOS = 60_000_000_000L;
    /**
     * The goal for the bytes per suspended flow: issue 19's "keep what already wins", the 346 bytes issue 10's
     * aim (350) reached.
     */
    private static final int GOAL_BYTES = 346;

    private final int count;
    private final boolean histogram;
    private final int runs;
    private boolean ok = true;

    private SuspendedFlowMemory(int count, boolean histogram, int runs) {
        this.count = count;
        this.histogram = histogram;
        this.runs = runs;
    }

    public static void main(String[] args) throws Exception {
        int count = 100_000;
        boolean histogram = true;
        int runs = 3;
        for (String a : args) {
            if (a.equals("--no-histogram")) {
                histogram = false;
            } else if (a.startsWith("--runs=")) {
                runs = Integer.parseInt(a.substring("--runs=".length()));
            } else {
                count = Integer.parseInt(a);
            }
        }
        if (runs < 1 || runs > 10) {
            throw new IllegalArgumentException("--runs: " + runs + " (expected: 1..10)");
        }
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(300_000);
                System.out.println("TIMEOUT: still running after 5 minutes, exiting");
                System.exit(2);
            } catch (InterruptedException e) {
                // done in time
            }
        }, "watchdog");
        watchdog.setDaemon(true);
        watchdog.start();

        System.out.printf(Locale.ROOT, "JVM: %s %s (%s), GC: %s, max heap %d MB, %d CPUs%n",
                System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"),
                System.getProperty("java.vm.vendor"), gcNames(), Runtime.getRuntime().maxMemory() >> 20,
                Runtime.getRuntime().availableProcessors());
        SuspendedFlowMemory m = new SuspendedFlowMemory(count, histogram, runs);
        double flow = 0;
        for (int run = 1; run <= runs; run++) {
            flow = m.flows(run);
        }
        double vt = Double.NaN;
        if (VirtualThreads.available()) {
            for (int run = 1; run <= runs; run++) {
                vt = m.virtualThreads(run);
            }
        } else {
            System.out.println("virtual threads: SKIPPED: " + VirtualThreads.reason());
        }
        System.out.printf(Locale.ROOT, "RESULT (last of %d runs) flows: %.0f bytes per suspended flow (goal <= %d: %s)%n",
                runs, flow, GOAL_BYTES, verdict(flow, GOAL_BYTES));
        if (!Double.isNaN(vt)) {
            System.out.printf(Locale.ROOT, "RESULT (last of %d runs) virtual threads: %.0f bytes per blocked virtual thread; "
                    + "flow/vt = %.2f%n", runs, vt, flow / vt);
        }
        System.out.println(m.ok ? "CHECKS: all passed" : "CHECKS: FAILED (see above)");
        watchdog.interrupt();
        System.exit(m.ok ? 0 : 1);
    }

    private static String verdict(double bytes, int limit) {
        return bytes <= limit ? "met" : "MISSED by " + Math.round(bytes - limit) + " bytes";
    }

    // ---------------------------------------------------------------- flows

    private double flows(int run) throws Exception {
        ContinuationClassLoader loader = ContinuationClassLoader.builder().include("dev.flow.bench.flows").build();
        loader.newInstance(Callable.class, FLOW_CLASS, CompletableFuture.completedFuture(0)); // load the class
        FlowScheduler scheduler = FlowScheduler.builder().workers(2).name("memory").build();
        List<CompletableFuture<Integer>> futures = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            futures.add(new CompletableFuture<>());
        }
        @SuppressWarnings("unchecked")
        FlowHandle<Object>[] handles = new FlowHandle[count];

        Map<String, long[]> h0 = histogram ? histogram() : null;
        long before = heapAfterGc();
        long t0 = System.nanoTime();
        for (int i = 0; i < count; i++) {
            handles[i] = scheduler.submit(loader.newInstance(Callable.class, FLOW_CLASS, futures.get(i)));
        }
        FlowStats s = waitFor(scheduler, st -> st.suspended() == count);
        long startMillis = (System.nanoTime() - t0) / 1_000_000;
        boolean allSuspended = s.suspended() == count && s.running() == 0 && s.queued() == 0 && s.active() == count;
        check(allSuspended, "flows run " + run + ": all " + count + " suspended: " + s);
        long after = heapAfterGc();
        double perFlow = (double) (after - before) / count;
        System.out.printf(Locale.ROOT, "flows run %d: %d flows suspended at depth 3 in %d ms; heap used after GC %d -> %d bytes: "
                + "%.0f bytes per suspended flow%n", run, count, startMillis, before, after, perFlow);
        if (histogram && run == runs) {
            printHistogramDiff("flows", h0, histogram(), count);
        }

        long t1 = System.nanoTime();
        for (int i = 0; i < count; i++) {
            futures.get(i).complete(i);
        }
        s = waitFor(scheduler, FlowStats::isIdle);
        long finishMillis = (System.nanoTime() - t1) / 1_000_000;
        int wrong = 0;
        for (int i = 0; i < count; i++) {
            if (!handles[i].isDone() || handles[i].isFailed() || !Integer.valueOf(i + 2).equals(handles[i].join())) {
                wrong++;
            }
        }
        check(wrong == 0, "flows run " + run + ": " + (count - wrong) + "/" + count + " finished with the right value");
        check(s.isIdle() && s.completed() == s.started() && s.failed() == 0 && s.resumed() == count,
                "flows run " + run + ": scheduler idle after completion (" + finishMillis + " ms): " + s);
        scheduler.close();
        check(scheduler.awaitTermination(java.time.Duration.ofSeconds(10)), "flows run " + run + ": scheduler stopped");
        return perFlow;
    }

    private static FlowStats waitFor(FlowScheduler scheduler, java.util.function.Predicate<FlowStats> p)
            throws InterruptedException {
        long deadline = System.nanoTime() + WAIT_NANOS;
        FlowStats s = scheduler.stats();
        while (!p.test(s) && System.nanoTime() < deadline) {
            Thread.sleep(5);
            s = scheduler.stats();
        }
        return s;
    }

    // ---------------------------------------------------------------- virtual threads

    private double virtualThreads(int run) throws Exception {
        List<CompletableFuture<Integer>> futures = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            futures.add(new CompletableFuture<>());
        }
        AtomicInteger arrived = new AtomicInteger();
        VtParkedAtDepth3[] tasks = new VtParkedAtDepth3[count];
        Thread[] threads = new Thread[count];
        VirtualThreads.start(() -> { }).join(); // start the virtual-thread scheduler

        Map<String, long[]> h0 = histogram ? histogram() : null;
        long before = heapAfterGc();
        long t0 = System.nanoTime();
        for (int i = 0; i < count; i++) {
            tasks[i] = new VtParkedAtDepth3(futures.get(i), arrived);
            threads[i] = VirtualThreads.start(tasks[i]);
        }
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (arrived.get() < count && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        int waiting = 0;
        while (System.nanoTime() < deadline) {
            waiting = 0;
            for (Thread t : threads) {
                if (t.getState() == Thread.State.WAITING) {
                    waiting++;
                }
            }
            if (waiting == count) {
                break;
            }
            Thread.sleep(5);
        }
        long startMillis = (System.nanoTime() - t0) / 1_000_000;
        check(waiting == count, "virtual threads run " + run + ": " + waiting + "/" + count + " blocked");
        long after = heapAfterGc();
        double perThread = (double) (after - before) / count;
        System.out.printf(Locale.ROOT, "virtual threads run %d: %d threads blocked in join() at depth 3 in %d ms; heap used after GC "
                + "%d -> %d bytes: %.0f bytes per blocked virtual thread%n", run, count, startMillis, before, after, perThread);
        if (histogram && run == runs) {
            printHistogramDiff("virtual threads", h0, histogram(), count);
        }

        for (int i = 0; i < count; i++) {
            futures.get(i).complete(i);
        }
        deadline = System.nanoTime() + WAIT_NANOS;
        int wrong = 0;
        for (int i = 0; i < count; i++) {
            long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
            threads[i].join(left);
            if (threads[i].isAlive() || tasks[i].result != i + 2) {
                wrong++;
            }
        }
        check(wrong == 0, "virtual threads run " + run + ": " + (count - wrong) + "/" + count + " finished with the right value");
        return perThread;
    }

    // ---------------------------------------------------------------- measuring

    private static long heapAfterGc() throws InterruptedException {
        long min = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(150);
            min = Math.min(min, MEMORY.getHeapMemoryUsage().getUsed());
        }
        return min;
    }

    private static String gcNames() {
        StringBuilder b = new StringBuilder();
        for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            b.append(b.length() == 0 ? "" : ", ").append(gc.getName());
        }
        return b.toString();
    }

    /** Class name -> {instances, bytes}, from the GC.class_histogram diagnostic command (forces a full GC). */
    private static Map<String, long[]> histogram() {
        Map<String, long[]> out = new HashMap<>();
        try {
            String text = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                    new Object[] {new String[0]}, new String[] {String[].class.getName()});
            for (String line : text.split("\n")) {
                String[] f = line.trim().split("\\s+");
                if (f.length >= 4 && f[0].endsWith(":")) {
                    out.put(f[3], new long[] {Long.parseLong(f[1]), Long.parseLong(f[2])});
                }
            }
        } catch (Exception e) {
            System.out.println("  (class histogram unavailable: " + e + ")");
        }
        return out;
    }

    private static void printHistogramDiff(String what, Map<String, long[]> before, Map<String, long[]> after, int count) {
        List<Map.Entry<String, long[]>> diff = new ArrayList<>();
        for (Map.Entry<String, long[]> e : after.entrySet()) {
            long[] b = before.getOrDefault(e.getKey(), new long[2]);
            long[] d = {e.getValue()[0] - b[0], e.getValue()[1] - b[1]};
            if (d[1] > count / 2) {
                diff.add(Map.entry(e.getKey(), d));
            }
        }
        diff.sort((x, y) -> Long.compare(y.getValue()[1], x.getValue()[1]));
        long total = 0;
        System.out.printf(Locale.ROOT, "  class histogram diff for %s, per item (classes adding >= 0.5 byte each):%n", what);
        for (Map.Entry<String, long[]> e : diff) {
            total += e.getValue()[1];
            System.out.printf(Locale.ROOT, "    %8.2f objects %8.1f bytes  %s%n", (double) e.getValue()[0] / count,
                    (double) e.getValue()[1] / count, e.getKey());
        }
        System.out.printf(Locale.ROOT, "    total of the rows: %.1f bytes per item%n", (double) total / count);
    }

    private void check(boolean condition, String message) {
        System.out.println((condition ? "  ok: " : "  FAILED: ") + message);
        if (!condition) {
            ok = false;
        }
    }
}
