package dev.flow.internal;

import dev.flow.SuspendPolicy;
import dev.flow.spi.Awaitable;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.apache.commons.javaflow.api.Continuation;

/**
 * The engine behind {@code FlowScheduler}: worker threads, a ready queue, a timer for sleeps and
 * timeouts, and the counters.
 *
 * <p>Flows run only on its workers; a completed awaited operation (on any thread, including a MINA
 * I/O processor) merely puts the flow back on the ready queue. Thread-safe.
 */
public final class SchedulerCore {

    private static final FlowState POISON = new FlowState(null, SuspendPolicy.never());
    /**
     * With this many flows suspended, memory matters more than the cost of a capture: parked stacks
     * are trimmed to their content (about 150 bytes saved per flow, three small copies per park).
     */
    static final int TRIM_THRESHOLD = 1024;
    private static final boolean TRIM = StackTrimmer.available();

    private final LinkedBlockingQueue<FlowState> ready = new LinkedBlockingQueue<>();
    private final Thread[] workers;
    private final ScheduledThreadPoolExecutor timer;
    private final SleepWheel sleeps;
    private final SuspendPolicy policy;
    private volatile boolean closed;

    private final LongAdder started = new LongAdder();
    private final LongAdder completed = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder resumed = new LongAdder();
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger suspended = new AtomicInteger();

    /** Creates and starts a scheduler. */
    public SchedulerCore(String name, int workerCount, SuspendPolicy policy, boolean daemon) {
        this.policy = policy;
        this.workers = new Thread[workerCount];
        for (int i = 0; i < workerCount; i++) {
            Thread t = new Worker(name + "-worker-" + i);
            t.setDaemon(daemon);
            workers[i] = t;
        }
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, name + "-timer");
            t.setDaemon(true);
            return t;
        });
        this.timer.setRemoveOnCancelPolicy(true);
        this.sleeps = new SleepWheel(name + "-sleeps");
        for (Thread t : workers) {
            t.start();
        }
    }

    /**
     * Starts a flow running {@code task}, a {@link Callable} or {@link Runnable}.
     *
     * @return the flow's result
     */
    public CompletableFuture<Object> submit(Object task) {
        if (closed) {
            throw new RejectedExecutionException("scheduler is closed");
        }
        FlowState f = new FlowState(this, policy);
        if (task instanceof FlowTask) {
            f.continuation = Continuation.startSuspendedWith(((FlowTask) task).flow$root(f), true);
        } else if (task instanceof Callable) {
            f.plainTask = (Callable<?>) task;
            f.pinSite = Pins.notInstrumentedSite(task.getClass());
        } else if (task instanceof Runnable) {
            Runnable r = (Runnable) task;
            f.plainTask = () -> {
                r.run();
                return null;
            };
            f.pinSite = Pins.notInstrumentedSite(task.getClass());
        } else {
            throw new IllegalArgumentException("task: " + task + " (expected: a Callable or a Runnable)");
        }
        started.increment();
        active.incrementAndGet();
        ready.add(f);
        return f.result;
    }

    /** Returns something that completes {@code nanos} from now, driven by this scheduler's timing wheel. */
    public Awaitable sleep(long nanos) {
        return sleeps.sleep(nanos);
    }

    /**
     * A worker thread. {@link #next} holds a flow woken on this worker while it registered the flow's
     * wake-up (the awaited operation completed meanwhile): the worker runs it next itself instead of
     * handing it to the shared queue and waking another worker for nothing.
     */
    private final class Worker extends Thread {
        FlowState next;
        boolean registering;

        Worker(String name) {
            super(name);
        }

        @Override
        public void run() {
            for (;;) {
                FlowState f = next;
                if (f != null) {
                    next = null;
                } else {
                    try {
                        f = ready.take();
                    } catch (InterruptedException e) {
                        if (closed) {
                            return;
                        }
                        continue;
                    }
                }
                if (f == POISON) {
                    return;
                }
                runOnce(f, this);
            }
        }
    }

    private void runOnce(FlowState f, Worker worker) {
        running.incrementAndGet();
        FlowState.setCurrent(f);
        boolean finished;
        try {
            if (f.plainTask != null) {
                try {
                    f.succeed(f.plainTask.call());
                } catch (Throwable t) {
                    f.fail(t);
                }
                finished = true;
            } else {
                Continuation next;
                try {
                    next = f.continuation.resume();
                } catch (Throwable t) {
                    next = null;
                    if (f.outcomeSet) {
                        throw t;
                    }
                    f.fail(t);
                }
                if (next == null) {
                    if (!f.outcomeSet) {
                        f.fail(new CancellationException("flow ended without a result"));
                    }
                    finished = true;
                } else {
                    f.continuation = next;
                    finished = false;
                }
            }
        } finally {
            FlowState.setCurrent(null);
        }
        if (finished) {
            f.continuation = null;
            active.decrementAndGet();
            running.decrementAndGet();
            f.publishOutcome();
        } else {
            if (suspended.incrementAndGet() >= TRIM_THRESHOLD && TRIM) {
                StackTrimmer.trim(f.continuation);
            }
            running.decrementAndGet();
            worker.registering = true;
            try {
                if (f.timeoutNanos == 0 && !f.staleCallbacks) {
                    f.armWake();
                    Waits.whenDone(f.blocker, f);
                } else {
                    Wakeup w = new Wakeup(f);
                    if (f.timeoutNanos > 0) {
                        w.timeout = timer.schedule(w::expire, f.timeoutNanos, TimeUnit.NANOSECONDS);
                    }
                    Waits.whenDone(f.blocker, w);
                }
            } finally {
                worker.registering = false;
            }
        }
    }

    void onFinished(FlowState f, Object value, Throwable failure) {
        f.setOutcome(value, failure);
        if (failure == null) {
            completed.increment();
        } else {
            failed.increment();
        }
    }

    void wake(FlowState f) {
        suspended.decrementAndGet();
        resumed.increment();
        if (closed) {
            active.decrementAndGet();
            failed.increment();
            f.result.completeExceptionally(new CancellationException("scheduler closed while the flow was suspended"));
            return;
        }
        Thread t = Thread.currentThread();
        if (t instanceof Worker) {
            Worker w = (Worker) t;
            if (w.registering && w.next == null && ready.isEmpty() && isWorker(w)) {
                w.next = f;
                return;
            }
        }
        ready.add(f);
    }

    /** Stops the workers after the flows already queued; suspended flows are failed when woken. */
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int i = 0; i < workers.length; i++) {
            ready.add(POISON);
        }
        timer.shutdownNow();
        sleeps.close();
    }

    /** Waits up to {@code millis} for the workers to stop; returns whether they did. */
    public boolean awaitTermination(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (Thread t : workers) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left > 0) {
                t.join(left);
            }
            if (t.isAlive()) {
                return false;
            }
        }
        return true;
    }

    /** Whether flows are waiting in the ready queue for a worker. */
    boolean hasQueuedFlows() {
        return !ready.isEmpty();
    }

    /** Number of workers. */
    public int workerCount() {
        return workers.length;
    }

    /** Whether the current thread is one of this scheduler's workers. */
    public boolean isWorker(Thread t) {
        for (Thread w : workers) {
            if (w == t) {
                return true;
            }
        }
        return false;
    }

    /** Counters, in the order started, completed, failed, resumed, active, running, suspended, queued. */
    public long[] counters() {
        return new long[] {started.sum(), completed.sum(), failed.sum(), resumed.sum(),
            active.get(), running.get(), suspended.get(), ready.size()};
    }

    private final class Wakeup extends AtomicBoolean implements Runnable, java.util.function.BiConsumer<Object, Throwable> {
        private static final long serialVersionUID = 1L;
        final transient FlowState flow;
        transient volatile ScheduledFuture<?> timeout;

        Wakeup(FlowState flow) {
            this.flow = flow;
        }

        @Override
        public void run() {
            if (compareAndSet(false, true)) {
                ScheduledFuture<?> t = timeout;
                if (t != null) {
                    t.cancel(false);
                }
                wake(flow);
            }
        }

        @Override
        public void accept(Object value, Throwable failure) {
            run();
        }

        void expire() {
            if (compareAndSet(false, true)) {
                flow.timedOut = true;
                flow.staleCallbacks = true;
                wake(flow);
            }
        }
    }
}
