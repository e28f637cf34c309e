package dev.flow.bench.load;

import dev.flow.FlowScheduler;
import dev.flow.FlowStats;
import dev.flow.bench.VirtualThreads;
import dev.flow.internal.SchedulerCore;
import dev.flow.loader.ContinuationClassLoader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The "sleepers" scenario: N flows (or threads) each run plain user code that calls
 * {@code Thread.sleep(ms)} ({@code handlers.Sleeper}); measures the wall time from the first start to
 * the last wake-up, and, with {@code --heap}, the heap retained per sleeping flow (used heap after a
 * full GC with all N asleep, minus the same before any was started, divided by N). With {@code --pinned}
 * each sleeps holding a monitor ({@code handlers.PinnedSleeper}), so a flow pins (loaded lenient) and
 * blocks its thread: the workers hand their places to at most {@code --max-pinned-threads} spare threads
 * (0: each pinned sleep holds its worker).
 *
 * <pre>
 * java -Xms4g -Xmx4g -cp benchmarks.jar dev.flow.bench.load.Sleepers --mode=continuation|virtual|platform
 *      --n=100000 [--sleep-ms=5000] [--workers=2] [--heap] [--platform-cap=10000]
 *      [--pinned [--max-pinned-threads=256]]
 * </pre>
 *
 * Prints one {@code SLEEPERS ...} line; exit 0 = all woke and (with --heap) all were asleep while
 * measured, 1 = a check failed, 3 = the mode cannot run here (the reason is printed).
 */
public final class Sleepers {

    /** Platform threads stop here: the machine allows 32,768 threads in total, for every process. */
    static final int PLATFORM_CAP_DEFAULT = 10_000;
    static final int PLATFORM_CAP_MAX = 25_000;

    private Sleepers() {
    }

    public static void main(String[] args) throws Exception {
        Args a = new Args(args);
        String mode = a.get("mode", "continuation");
        int n = a.getInt("n", 100_000);
        long sleepMs = a.getInt("sleep-ms", 5000);
        int workers = a.getInt("workers", 2);
        boolean heap = a.getBool("heap");
        boolean pinned = a.getBool("pinned");
        int maxPinned = a.getInt("max-pinned-threads", SchedulerCore.DEFAULT_MAX_PINNED_THREADS);
        int cap = Math.min(a.getInt("platform-cap", PLATFORM_CAP_DEFAULT), PLATFORM_CAP_MAX);
        a.checkAllUsed();
        if (n < 1 || n > 2_000_000) {
            throw new IllegalArgumentException("n: " + n + " (expected: 1..2000000)");
        }
        if (mode.equals("virtual") && !VirtualThreads.available()) {
            System.out.println("SLEEPERS mode=virtual n=" + n + " SKIPPED: " + VirtualThreads.reason());
            System.exit(3);
        }
        if (mode.equals("platform") && n > cap) {
            System.out.println("SLEEPERS mode=platform n=" + n + " LIMIT: platform threads stop at " + cap
                    + " (the machine caps threads at 32,768 in total for all processes; " + n
                    + " would need that many threads at once; raise --platform-cap up to " + PLATFORM_CAP_MAX + " to try)");
            System.exit(3);
        }
        MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
        AtomicLong sleeping = new AtomicLong();
        AtomicLong done = new AtomicLong();
        long timeLimitNs = (sleepMs + 120_000) * 1_000_000L;
        long before = heap ? usedAfterGc(mem) : 0;
        long rss0 = ProcStats.of(ProcessHandle.current().pid()).rssKb;
        FlowScheduler scheduler = null;
        long start;
        long startedAt;
        String failure = null;
        if (mode.equals("continuation")) {
            // A pinned sleeper is refused by a strict loader, so it is loaded lenient.
            ContinuationClassLoader loader = ContinuationClassLoader.builder().include(LoadServer.HANDLERS).strict(!pinned).build();
            Callable<?> task = loader.newInstance(Callable.class, LoadServer.HANDLERS + (pinned ? ".PinnedSleeper" : ".Sleeper"),
                    sleepMs, sleeping, done);
            scheduler = FlowScheduler.builder().workers(workers).maxPinnedThreads(maxPinned).name("sleepers").build();
            start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                scheduler.submit(task);
            }
            startedAt = System.nanoTime();
        } else if (mode.equals("virtual") || mode.equals("platform")) {
            Runnable task = pinned ? new dev.flow.bench.load.handlers.PinnedSleeper(sleepMs, sleeping, done)
                    : new dev.flow.bench.load.handlers.Sleeper(sleepMs, sleeping, done);
            boolean virtual = mode.equals("virtual");
            start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                Thread t;
                if (virtual) {
                    t = VirtualThreads.unstarted(task);
                } else {
                    t = new Thread(null, task, "sleeper-" + i, 256 * 1024);
                    t.setDaemon(true);
                }
                try {
                    t.start();
                } catch (OutOfMemoryError e) {
                    failure = "thread " + i + " could not start: " + e.getMessage();
                    break;
                }
            }
            startedAt = System.nanoTime();
        } else {
            throw new IllegalArgumentException("mode: " + mode + " (expected: continuation, virtual or platform)");
        }
        long deadline = start + timeLimitNs;
        long perFlow = -1;
        long asleepWhenMeasured = -1;
        long rssPerFlow = -1;
        if (heap && failure == null) {
            while (sleeping.get() < n && done.get() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            long after = usedAfterGc(mem);
            long rss1 = ProcStats.of(ProcessHandle.current().pid()).rssKb;
            asleepWhenMeasured = sleeping.get() - done.get();
            perFlow = (after - before) / n;
            rssPerFlow = rss1 < 0 ? -1 : (rss1 - rss0) * 1024 / n;
            if (done.get() > 0 || sleeping.get() < n) {
                failure = "heap measured when " + asleepWhenMeasured + " of " + n + " were asleep (expected all): "
                        + "use a longer --sleep-ms";
            }
        }
        while (done.get() < n && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        long end = System.nanoTime();
        if (done.get() < n && failure == null) {
            failure = "only " + done.get() + " of " + n + " woke within the time limit";
        }
        FlowStats stats = scheduler == null ? null : scheduler.stats();
        System.out.printf(Locale.ROOT, "SLEEPERS mode=%s%s n=%d sleep_ms=%d workers=%s wall_ms=%.0f start_ms=%.0f"
                        + " overhead_ms=%.0f heap_bytes_per_flow=%d rss_bytes_per_flow=%d threads=%d jdk=%s stats=%s%s%n",
                mode, pinned ? " pinned max_pinned_threads=" + (mode.equals("continuation") ? maxPinned : "-") : "",
                n, sleepMs, mode.equals("continuation") ? String.valueOf(workers) : "-", (end - start) / 1e6,
                (startedAt - start) / 1e6, (end - start) / 1e6 - sleepMs, perFlow, rssPerFlow,
                ManagementFactory.getThreadMXBean().getPeakThreadCount(), Runtime.version(), stats,
                failure == null ? "" : " FAILED: " + failure);
        if (scheduler != null) {
            scheduler.close();
        }
        System.exit(failure == null ? 0 : 1);
    }

    private static long usedAfterGc(MemoryMXBean mem) throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(20);
        }
        return mem.getHeapMemoryUsage().getUsed();
    }
}
