package dev.flow;

import dev.flow.internal.SchedulerCore;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/**
 * Runs flows on a few worker threads: a ready queue, a timer for sleeps and timeouts, and counters.
 *
 * <p>A task whose class was loaded through the {@code ContinuationClassLoader} suspends at every
 * blocking call it makes and is resumed on a worker when the awaited operation completes. Any other
 * task simply runs, blocking its worker when it waits. Thread-safe; close it when done.
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
        this.core = new SchedulerCore(b.name, b.workers, b.policy, b.daemon);
    }

    /** Returns a builder: 1 worker, {@link SuspendPolicy#immediately()}, name "flow", daemon. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts a flow that calls {@code task} and returns its handle.
     *
     * @throws java.util.concurrent.RejectedExecutionException if the scheduler is closed
     */
    @SuppressWarnings("unchecked")
    public <T> FlowHandle<T> submit(Callable<T> task) {
        Objects.requireNonNull(task, "task");
        return new FlowHandle<>((CompletableFuture<T>) (CompletableFuture<?>) core.submit(task));
    }

    /**
     * Starts a flow that runs {@code task} and returns its handle.
     *
     * @throws java.util.concurrent.RejectedExecutionException if the scheduler is closed
     */
    @SuppressWarnings("unchecked")
    public FlowHandle<Void> start(Runnable task) {
        Objects.requireNonNull(task, "task");
        return new FlowHandle<>((CompletableFuture<Void>) (CompletableFuture<?>) core.submit(task));
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

    /** Whether {@code thread} is one of this scheduler's workers. */
    public boolean isWorker(Thread thread) {
        return core.isWorker(thread);
    }

    /**
     * Stops the workers once the flows already queued have run. Flows still suspended are failed
     * with a {@link java.util.concurrent.CancellationException} if they are ever woken.
     */
    @Override
    public void close() {
        core.close();
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
        private SuspendPolicy policy = SuspendPolicy.immediately();
        private String name = "flow";
        private boolean daemon = true;

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

        /** Creates and starts the scheduler. */
        public FlowScheduler build() {
            return new FlowScheduler(this);
        }
    }
}
