package dev.flow;

import dev.flow.internal.SchedulerCore;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadFactory;

/**
 * Runs flows on a few worker threads: a ready queue, a timer for sleeps and timeouts, and counters.
 *
 * <p>A task whose class was loaded through the {@code ContinuationClassLoader} suspends at every
 * blocking call it makes and is resumed on a worker when the awaited operation completes. Any other
 * task simply runs, blocking its thread when it waits. A wait that cannot suspend (a <em>pinned</em>
 * wait: such a task's, or one inside a constructor, a held monitor or a JDK callback) blocks its thread,
 * but first the worker hands its place to another thread, so that the other flows keep every worker
 * ({@link Builder#maxPinnedThreads(int)}). Thread-safe; close it when done.
 *
 * <pre>{@code
 * try (FlowScheduler scheduler = FlowScheduler.builder().workers(2).build()) {
 *     FlowHandle<Object> h = scheduler.submit(loader.newInstance(Callable.class, "com.example.Client"));
 *     h.join();
 * }
 * }</pre>
 */
public final class FlowScheduler implements AutoCloseable {

    private final SchedulerCore core;
    private final SuspendPolicy policy;
    private final String name;

    private FlowScheduler(Builder b) {
        this.policy = b.policy;
        this.name = b.name;
        this.core = new SchedulerCore(b.name, b.workers, b.maxPinnedThreads, b.policy, b.daemon, b.recordStacks, this);
    }

    /**
     * Returns the scheduler running the calling flow, or {@code null} outside a flow: for starting
     * sibling flows from flow code.
     */
    public static FlowScheduler current() {
        return (FlowScheduler) SchedulerCore.currentOwner();
    }

    /**
     * Returns a builder: 1 worker, up to 256 threads standing in for workers blocked in pinned waits,
     * {@link SuspendPolicy#immediately()}, name "flow", daemon.
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts a flow that calls {@code task} and returns its handle. A submit racing {@link #close()}
     * either runs the flow or throws; it never loses it.
     *
     * @throws java.util.concurrent.RejectedExecutionException if the scheduler is closed or closing
     */
    public <T> FlowHandle<T> submit(Callable<T> task) {
        return submit(task, null);
    }

    /**
     * Starts a flow that calls {@code task}, named {@code name} in {@link #dump()} (for example after
     * its session), and returns its handle.
     *
     * @throws java.util.concurrent.RejectedExecutionException if the scheduler is closed or closing
     */
    public <T> FlowHandle<T> submit(Callable<T> task, String name) {
        Objects.requireNonNull(task, "task");
        return handle(task, name);
    }

    /**
     * Starts a flow that runs {@code task} and returns its handle.
     *
     * @throws java.util.concurrent.RejectedExecutionException if the scheduler is closed or closing
     */
    public FlowHandle<Void> start(Runnable task) {
        Objects.requireNonNull(task, "task");
        return handle(task, null);
    }

    @SuppressWarnings("unchecked")
    private <T> FlowHandle<T> handle(Object task, String flowName) {
        return new FlowHandle<>((CompletableFuture<T>) (CompletableFuture<?>) core.submit(task, flowName));
    }

    /**
     * A readable dump of every flow, the "jstack" of Flow: for each running, suspended and queued flow,
     * its name, what it waits for and since when (to within 10 ms: a coarse clock, not read per
     * suspension), and its stack of user frames (a running flow's from its worker; a suspended flow's
     * only with {@link Builder#recordStacks(boolean)}). A best-effort snapshot: flows keep running
     * while it is taken.
     */
    public String dump() {
        return core.dump();
    }

    /** Logs {@link #dump()} at INFO level on the logger {@code dev.flow.FlowScheduler}. */
    public void logDump() {
        dev.flow.internal.Slf4j.logger(FlowScheduler.class).info("{}", core.dump());
    }

    /** A snapshot of the counters. */
    public FlowStats stats() {
        return new FlowStats(core.counters());
    }

    /** The suspend policy flows of this scheduler follow. */
    public SuspendPolicy policy() {
        return policy;
    }

    /** The number of worker threads. */
    public int workers() {
        return core.workerCount();
    }

    /**
     * Whether {@code thread} is one of this scheduler's worker threads, including those that stand in
     * for workers blocked in pinned waits.
     */
    public boolean isWorker(Thread thread) {
        return core.isWorker(thread);
    }

    /**
     * A factory of <em>carrier</em> threads for a transport's I/O threads: a flow of this scheduler
     * whose awaited operation completes on such a thread is resumed right there instead of on a worker
     * (flows still start on workers; timers, sleeps and other threads still resume them on workers).
     * A flow running on a carrier must not block it: a wait that cannot suspend there throws {@link
     * UnsuspendableFrameException}. Used by {@code FlowServer}'s and {@code FlowConnector}'s {@code
     * Dispatch.IO_THREADS}; the threads are named {@code namePrefix-N} and are not daemon threads.
     */
    public ThreadFactory carrierThreadFactory(String namePrefix) {
        return core.carrierThreadFactory(namePrefix, false);
    }

    /**
     * A factory of <em>adaptive</em> carrier threads, for {@code Dispatch.ADAPTIVE}: like {@link
     * #carrierThreadFactory}, but a flow is resumed on such a thread only if it never blocked in a pinned
     * wait, only after its last runs (two at the start) each took at most a millisecond, and, if its class
     * was instrumented lenient (its waits may pin), only while the event loop running on the thread can go
     * on on another thread should the flow block (MINA's I/O loops of {@code FlowServer} and {@code
     * FlowConnector} can); other flows are handed to the workers. A second run longer than that within
     * 16 runs sends the flow back to the workers until twice as many short runs in a row (up to 64) have
     * followed; a long run alone is forgiven, and 127 short runs in a row halve the streak asked for.
     * Threads are named {@code namePrefix-N}, not daemon.
     */
    public ThreadFactory adaptiveCarrierThreadFactory(String namePrefix) {
        return core.carrierThreadFactory(namePrefix, true);
    }

    /**
     * Closes at once: {@code close(Duration.ZERO)}.
     */
    @Override
    public void close() {
        core.close(0);
    }

    /**
     * Closes the scheduler. New flows are rejected with a {@link
     * java.util.concurrent.RejectedExecutionException} naming the scheduler. Flows already submitted
     * may run on for up to {@code grace}; then every flow still active fails at its suspension point
     * (and at any later one) with a {@link java.util.concurrent.CancellationException} whose message
     * names the scheduler, so that its finally blocks run and its handle completes. Returns once every
     * flow has ended and the workers and timer threads have stopped (the counts are then 0), unless
     * called from one of the scheduler's own workers, which does not wait. A flow that blocks its
     * worker without suspending delays the return until it ends; interrupting the caller stops the
     * wait. Calling it again waits again.
     */
    public void close(Duration grace) {
        Objects.requireNonNull(grace, "grace");
        if (grace.isNegative()) {
            throw new IllegalArgumentException("grace: " + grace + " (expected: >= 0)");
        }
        core.close(saturatedNanos(grace));
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    /** Waits up to {@code timeout} for the workers to stop; returns whether they did. */
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        return core.awaitTermination(timeout.toMillis());
    }

    @Override
    public String toString() {
        return "FlowScheduler[" + name + ", workers=" + core.workerCount() + ", policy=" + policy + "]";
    }

    /** Builds a {@link FlowScheduler}. Not thread-safe. */
    public static final class Builder {
        private int workers = 1;
        private int maxPinnedThreads = SchedulerCore.DEFAULT_MAX_PINNED_THREADS;
        private SuspendPolicy policy = SuspendPolicy.immediately();
        private String name = "flow";
        private boolean daemon = true;
        private boolean recordStacks;

        private Builder() {
        }

        /** Number of worker threads; default 1, 1 to 1024. */
        public Builder workers(int workers) {
            if (workers < 1 || workers > 1024) {
                throw new IllegalArgumentException("workers: " + workers + " (expected: 1..1024)");
            }
            this.workers = workers;
            return this;
        }

        /**
         * How many threads may exist beyond the workers, standing in for workers blocked in pinned waits;
         * default 256, 0 to 32767. A worker about to block in a wait that cannot suspend (a task that was not
         * instrumented, an await inside a constructor, a held monitor or a JDK callback, a blocking call with
         * no suspendable form; the loader reports each such site once) hands its place in the ready queue to
         * a spare thread, or a new one while fewer than this many exist, and runs its flow on to its next
         * suspension or end; it then stays as a spare, and a spare left idle for 30 s ends. So a pinned wait
         * costs a thread for its duration, as on a thread per session, and not a worker: the other flows
         * keep running, and flows that wait on each other while pinned do not deadlock the workers (within
         * this limit). With 0, or at the limit, a pinned wait holds its worker until it ends. Waits under {@link
         * SuspendPolicy#never()} are not pinned waits: they hold their worker by choice.
         */
        public Builder maxPinnedThreads(int maxPinnedThreads) {
            if (maxPinnedThreads < 0 || maxPinnedThreads > 32767) {
                throw new IllegalArgumentException("maxPinnedThreads: " + maxPinnedThreads + " (expected: 0..32767)");
            }
            this.maxPinnedThreads = maxPinnedThreads;
            return this;
        }

        /** The suspend policy; default {@link SuspendPolicy#immediately()}. */
        public Builder policy(SuspendPolicy policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /** Prefix of the thread names; default "flow". */
        public Builder name(String name) {
            Objects.requireNonNull(name, "name");
            if (name.isEmpty()) {
                throw new IllegalArgumentException("name: \"\" (expected: non-empty)");
            }
            this.name = name;
            return this;
        }

        /** Whether workers are daemon threads; default {@code true}. */
        public Builder daemon(boolean daemon) {
            this.daemon = daemon;
            return this;
        }

        /**
         * Whether each suspension records the flow's stack of user frames for {@link
         * FlowScheduler#dump()}; default {@code false}. Costs a stack walk (a few microseconds) and a
         * small array per suspension.
         */
        public Builder recordStacks(boolean recordStacks) {
            this.recordStacks = recordStacks;
            return this;
        }

        /** Creates and starts the scheduler. */
        public FlowScheduler build() {
            return new FlowScheduler(this);
        }
    }
}
