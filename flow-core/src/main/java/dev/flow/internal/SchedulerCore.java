package dev.flow.internal;

import dev.flow.SuspendPolicy;
import dev.flow.spi.Awaitable;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine behind {@code FlowScheduler}: worker threads, a ready queue, a timer for timeouts, a
 * timing wheel for sleeps, the list of active flows and the counters.
 *
 * <p>Flows run only on its workers; a completed awaited operation (on any thread, including a MINA
 * I/O processor) merely puts the flow back on the ready queue. Every suspension has one wake-up
 * ({@link Ticket}); whoever claims it (the operation, a timeout, a cancel, {@link #close}) alone
 * resumes the flow, so a flow is touched by one thread at a time. After arming the wake-up, the
 * suspending worker no longer touches the flow. Thread-safe.
 */
public final class SchedulerCore {

    private static final Logger LOG = LoggerFactory.getLogger(SchedulerCore.class);
    /**
     * With this many flows suspended, memory matters more than the cost of a capture: parked stacks
     * are packed ({@link StackTrimmer}: about 180 bytes saved per flow at depth 3, two small arrays
     * per park and three per resumption).
     */
    static final int TRIM_THRESHOLD = 1024;
    private static final VarHandle WORKER_CURRENT;
    private static final VarHandle COARSE_NOW;
    /** {@link #coarseNow} while the clock is not ticking. */
    private static final int STALE = Integer.MIN_VALUE;
    private static final long TICK_NANOS = 1_000_000L;

    static {
        try {
            WORKER_CURRENT = MethodHandles.lookup().findVarHandle(Worker.class, "current", FlowState.class);
            COARSE_NOW = MethodHandles.lookup().findVarHandle(SchedulerCore.class, "coarseNow", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String name;
    private final Object owner;
    private final ReadyQueue ready;
    private final Worker[] workers;
    private final ScheduledThreadPoolExecutor timer;
    private final SleepWheel sleeps;
    private final SuspendPolicy policy;
    private final boolean recordStacks;
    /**
     * Head of the doubly linked list of active flows (a sentinel); guarded by itself. A flow is linked
     * once, at submission, and unlinked when it ends, not at every suspension: {@link #close} reaches
     * the suspended ones through their wake-up ({@link FlowState#ticket}).
     */
    private final FlowState flows;
    /** No new flows are accepted. */
    private volatile boolean closing;
    /** Flows are failed at their suspension points; set under the {@link #flows} lock. */
    volatile boolean stopping;
    private final AtomicBoolean terminated = new AtomicBoolean();
    private final CountDownLatch termination = new CountDownLatch(1);

    private final LongAdder started = new LongAdder();
    private final LongAdder completed = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder resumed = new LongAdder();
    private final LongAdder workerErrors = new LongAdder();
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger suspended = new AtomicInteger();
    private final long epoch = System.nanoTime();
    /**
     * {@link #clock()} as of the last tick of the timer (every millisecond while flows suspend), or
     * {@link #STALE}: at most a tick (plus the timer's lateness) behind, never ahead.
     */
    private volatile int coarseNow = STALE;
    /** Whether {@link #coarseNow} was read since the last tick; a racy hint, written once per tick. */
    private boolean coarseRead;

    /**
     * Creates and starts a scheduler.
     *
     * @param recordStacks whether each suspension records its stack for {@link #dump()} (costs a
     *     stack walk per suspension)
     * @param owner the {@code FlowScheduler} this core runs for, returned by {@link #currentOwner()}
     */
    public SchedulerCore(String name, int workerCount, SuspendPolicy policy, boolean daemon, boolean recordStacks,
                         Object owner) {
        this.name = name;
        this.owner = owner;
        this.policy = policy;
        this.recordStacks = recordStacks;
        this.flows = new FlowState(this, "list");
        flows.prev = flows;
        flows.next = flows;
        this.ready = new ReadyQueue(workerCount);
        this.workers = new Worker[workerCount];
        for (int i = 0; i < workerCount; i++) {
            Worker t = new Worker(name + "-worker-" + i, i);
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
     * @param flowName a name for {@link #dump()}, or {@code null} for a number
     * @return the flow's result, completed when it ends, which knows the flow (for {@link FlowState#cancel()})
     * @throws RejectedExecutionException if the scheduler is closed or closing
     */
    public FlowResult submit(Object task, String flowName) {
        FlowState f = new FlowState(this, flowName);
        if (task instanceof FlowTask) {
            f.continuation = Engine.start(((FlowTask) task).flow$root(f));
            f.blocker = task;
        } else if (task instanceof Callable) {
            f.task = (Callable<?>) task;
            f.pinSite = Pins.notInstrumentedSite(task.getClass());
        } else if (task instanceof Runnable) {
            Runnable r = (Runnable) task;
            f.task = () -> {
                r.run();
                return null;
            };
            f.pinSite = Pins.notInstrumentedSite(task.getClass());
        } else {
            throw new IllegalArgumentException("task: " + task + " (expected: a Callable or a Runnable)");
        }
        // Counted active before the closing check: close() waits for active flows, so a flow that
        // passes the check is always run, and one that does not is rejected.
        active.incrementAndGet();
        if (closing) {
            flowEnded();
            throw new RejectedExecutionException("flow scheduler '" + name + "' is closed");
        }
        started.increment();
        link(f);
        f.since = coarseClock();
        ready.add(f);
        return f.result;
    }

    /** The owner of the scheduler running the calling flow, or {@code null} outside a flow. */
    public static Object currentOwner() {
        FlowState f = FlowState.current();
        return f == null ? null : f.scheduler.owner;
    }

    /** Returns something that completes {@code nanos} from now, driven by this scheduler's timing wheel. */
    Awaitable sleep(long nanos) {
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
        volatile FlowState current;
        /** This worker's slot in the {@link ReadyQueue}. */
        final int index;

        Worker(String name, int index) {
            super(name);
            this.index = index;
        }

        @Override
        public void run() {
            for (;;) {
                FlowState f = next;
                if (f != null) {
                    next = null;
                } else {
                    f = ready.take(index);
                    if (f == null) {
                        return;
                    }
                }
                try {
                    runOnce(f, this);
                } catch (Throwable t) {
                    // runOnce handles every failure of a flow itself; this is a bug in Flow. The
                    // worker survives it and reports it.
                    workerErrors.increment();
                    LOG.error("flow scheduler '{}': worker {} survived an unexpected error while running {}",
                            name, getName(), f, t);
                }
            }
        }
    }

    private void runOnce(FlowState f, Worker worker) {
        running.incrementAndGet();
        Thread.interrupted();
        if (f.interrupted) {
            f.interrupted = false;
            worker.interrupt();
        }
        if (f.continuation == null) {
            // A cancel interrupts the worker of a task that cannot suspend: it must see it here.
            worker.current = f;
        } else {
            // Only dump() reads it for a continuation: no fence per resumption.
            WORKER_CURRENT.setRelease(worker, f);
        }
        FlowState.setCurrent(f);
        boolean finished = true;
        Object value = null;
        Throwable failure = null;
        try {
            if (f.stop != 0 && !f.begun) {
                failure = new CancellationException("flow cancelled");
            } else if (f.continuation == null) {
                f.begun = true;
                try {
                    value = f.task.call();
                } catch (Throwable t) {
                    failure = t;
                }
            } else {
                f.begun = true;
                boolean suspendedAgain = false;
                try {
                    suspendedAgain = Engine.resume(f.continuation);
                } catch (Throwable t) {
                    failure = t;
                }
                if (suspendedAgain) {
                    finished = false;
                } else if (failure == null) {
                    try {
                        value = f.task.call();
                    } catch (Throwable t) {
                        failure = t;
                    }
                }
            }
        } finally {
            FlowState.setCurrent(null);
            if (f.continuation == null) {
                // Under the flow's lock, so that a cancel cannot interrupt the worker once it has
                // moved on to another flow.
                synchronized (f) {
                    worker.current = null;
                }
            } else {
                WORKER_CURRENT.setRelease(worker, null);
            }
            f.interrupted = Thread.interrupted();
        }
        if (finished) {
            running.decrementAndGet();
            finish(f, value, failure);
        } else {
            park(f, worker);
        }
    }

    private void finish(FlowState f, Object value, Throwable failure) {
        f.continuation = null;
        f.task = null;
        f.interrupted = false;
        f.blocker = null;
        f.clearLocals();
        if (f.stop != 0) {
            CancellationException c = new CancellationException("flow cancelled");
            if (failure != null && !(failure instanceof CancellationException)) {
                c.initCause(failure);
            }
            failure = c;
        }
        // Counted before the handle completes, so that a caller woken by the handle sees the counts.
        if (failure == null) {
            completed.increment();
            flowEnded(f);
            f.result.complete(value);
        } else {
            failed.increment();
            flowEnded(f);
            f.result.completeExceptionally(failure);
        }
    }

    private void flowEnded(FlowState f) {
        unlink(f);
        flowEnded();
    }

    private void flowEnded() {
        if (active.decrementAndGet() == 0 && closing) {
            terminate();
        }
    }

    /** Registers the wake-up of a flow that has just suspended; must not touch {@code f} once armed. */
    private void park(FlowState f, Worker worker) {
        Object w = f.blocker;
        long timeout = f.timeoutNanos();
        f.since = coarseClock();
        if (suspended.incrementAndGet() >= TRIM_THRESHOLD) {
            Engine.pack(f.continuation);
        }
        running.decrementAndGet();
        Wakeup wakeup = timeout == 0 && !f.stale() ? null : new Wakeup(f);
        if (wakeup == null) {
            if (f.ticket != f) {
                f.ticket = f;
            }
            f.armWake();
        } else {
            f.ticket = wakeup;
        }
        // Armed (volatile) before reading the flags (volatile), which cancel() and stopAll() set
        // before claiming the ticket: either they see this wake-up armed, or this sees their flag.
        if (f.stop != 0) {
            // Cancelled while suspending: the cancel may have found the wake-up not yet armed.
            stop(f, true);
            return;
        }
        if (stopping) {
            // The scheduler is failing its flows: this one resumes at once and throws.
            stop(f, false);
            return;
        }
        worker.registering = true;
        try {
            if (wakeup == null) {
                Waits.whenDone(w, f);
            } else {
                wakeup.register(w, timeout);
            }
        } catch (Throwable t) {
            // The flow gets the failure at its suspension point, unless something else woke it.
            Ticket ticket = wakeup == null ? f : wakeup;
            if (ticket.claim()) {
                ticket.release();
                f.markStale();
                f.blocker = new FlowState.Failed(t);
                resumeClaimed(f, true);
            }
        } finally {
            worker.registering = false;
        }
    }

    private void link(FlowState f) {
        synchronized (flows) {
            FlowState last = flows.prev;
            f.prev = last;
            f.next = flows;
            last.next = f;
            flows.prev = f;
        }
    }

    private void unlink(FlowState f) {
        synchronized (flows) {
            if (f.prev != null) {
                f.prev.next = f.next;
                f.next.prev = f.prev;
                f.prev = null;
                f.next = null;
            }
        }
    }

    /** Resumes {@code f}, whose wake-up the caller has just claimed. */
    void resumeClaimed(FlowState f, boolean countResumed) {
        suspended.decrementAndGet();
        if (countResumed) {
            resumed.increment();
        }
        enqueue(f);
    }

    private void enqueue(FlowState f) {
        Thread t = Thread.currentThread();
        if (t instanceof Worker) {
            Worker w = (Worker) t;
            if (w.registering && w.next == null && ready.isEmpty() && isWorker(w)) {
                // Runs next on this worker: never queued, so no "ready since" for dump().
                w.next = f;
                return;
            }
        }
        f.since = coarseClock();
        ready.add(f);
    }

    /**
     * Resumes a suspended flow so that it throws at its suspension point (cancel or close), if its
     * wake-up can still be claimed.
     */
    private void stop(FlowState f, boolean countResumed) {
        Ticket t = f.ticket;
        if (t == null || !t.claim()) {
            return;
        }
        t.release();
        Object w = f.blocker;
        if (w instanceof SleepWheel.Sleep) {
            ((SleepWheel.Sleep) w).cancel();
        }
        f.markStale();
        resumeClaimed(f, countResumed);
    }

    /** Implements {@link FlowState#cancel()}. */
    boolean cancel(FlowState f) {
        if (f.result.isDone()) {
            return false;
        }
        synchronized (f) {
            if (f.stop != 0) {
                return false;
            }
            f.stop = FlowState.CANCELLED;
            if (f.continuation == null) {
                for (Worker w : workers) {
                    if (w.current == f) {
                        w.interrupt();
                    }
                }
            }
        }
        stop(f, true);
        return true;
    }

    /**
     * Stops accepting flows; waits up to {@code graceNanos} for the active flows to end on their own;
     * then fails every remaining flow at its suspension point (and at any later one) with a {@link
     * CancellationException} naming the scheduler, and waits for the workers to run those flows to
     * their end and stop. Called on one of its own workers, it does not wait.
     */
    public void close(long graceNanos) {
        closing = true;
        if (active.get() == 0) {
            terminate();
        }
        boolean onWorker = isWorker(Thread.currentThread());
        try {
            if (!onWorker && graceNanos > 0) {
                termination.await(graceNanos, TimeUnit.NANOSECONDS);
            }
            stopAll();
            if (!onWorker) {
                termination.await();
                for (Worker w : workers) {
                    w.join();
                }
                timer.awaitTermination(Long.MAX_VALUE, TimeUnit.NANOSECONDS);
                sleeps.awaitTermination(0);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopAll();
        }
    }

    private void stopAll() {
        List<FlowState> all = new ArrayList<>();
        synchronized (flows) {
            stopping = true;
            for (FlowState f = flows.next; f != flows; f = f.next) {
                all.add(f);
            }
        }
        for (FlowState f : all) {
            stop(f, false);
        }
    }

    private void terminate() {
        if (!terminated.compareAndSet(false, true)) {
            return;
        }
        ready.close();
        timer.shutdownNow();
        sleeps.close();
        termination.countDown();
    }

    /** Milliseconds since the scheduler started, for {@link FlowState#since}. */
    int clock() {
        return (int) ((System.nanoTime() - epoch) / 1_000_000L);
    }

    /**
     * {@link #clock()} to within about a millisecond, without reading the system clock: a field
     * refreshed by the timer every millisecond for as long as it is read (a tick that finds it unread
     * stops the ticking; the next read starts it again, reading the clock once).
     */
    private int coarseClock() {
        int now = coarseNow;
        if (now == STALE) {
            now = clock();
            if (COARSE_NOW.compareAndSet(this, STALE, now)) {
                scheduleTick();
            }
            return now;
        }
        if (!coarseRead) {
            coarseRead = true;
        }
        return now;
    }

    private void tick() {
        if (!coarseRead) {
            coarseNow = STALE;
            return;
        }
        coarseRead = false;
        coarseNow = clock();
        scheduleTick();
    }

    private void scheduleTick() {
        try {
            timer.schedule(this::tick, TICK_NANOS, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // The scheduler has terminated: the clock is read directly from now on.
            coarseNow = STALE;
        }
    }

    String closedMessage() {
        return "flow scheduler '" + name + "' closed";
    }

    /** Waits up to {@code millis} for the workers and the timer to stop; returns whether they did. */
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
        return timer.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)
                && sleeps.awaitTermination(TimeUnit.NANOSECONDS.toMillis(Math.max(0, deadline - System.nanoTime())) + 1);
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

    /**
     * Counters, in the order started, completed, failed, resumed, active, running, suspended, queued,
     * workers alive, worker errors.
     */
    public long[] counters() {
        int alive = 0;
        for (Thread w : workers) {
            if (w.isAlive()) {
                alive++;
            }
        }
        return new long[] {started.sum(), completed.sum(), failed.sum(), resumed.sum(),
            active.get(), running.get(), suspended.get(), ready.size(), alive, workerErrors.sum()};
    }

    /** A readable dump of every flow: running, suspended and queued; see {@code FlowScheduler.dump()}. */
    public String dump() {
        return FlowDumper.dump(this);
    }

    String name() {
        return name;
    }

    boolean recordsStacks() {
        return recordStacks;
    }

    SuspendPolicy policy() {
        return policy;
    }

    List<Object[]> runningFlows() {
        List<Object[]> out = new ArrayList<>();
        for (Worker w : workers) {
            FlowState f = w.current;
            if (f != null) {
                out.add(new Object[] {f, w, w.getStackTrace()});
            }
        }
        return out;
    }

    List<FlowState> suspendedFlows() {
        List<FlowState> out = new ArrayList<>();
        synchronized (flows) {
            for (FlowState f = flows.next; f != flows; f = f.next) {
                Ticket t = f.ticket;
                if (t != null && t.live()) {
                    out.add(f);
                }
            }
        }
        return out;
    }

    List<FlowState> queuedFlows() {
        return ready.snapshot();
    }

    /**
     * The wake-up of a timed suspension, or of any suspension after a flow was woken by something
     * other than its own callback (whose old callbacks may still fire): one object per suspension.
     */
    private final class Wakeup extends Ticket implements Runnable, BiConsumer<Object, Throwable>, Callable<Void> {
        private static final AtomicIntegerFieldUpdater<Wakeup> CLAIMED =
                AtomicIntegerFieldUpdater.newUpdater(Wakeup.class, "claimed");
        private final FlowState flow;
        /** 1 once claimed. */
        private volatile int claimed;
        private volatile ScheduledFuture<?> timeout;
        private volatile Object registration;

        Wakeup(FlowState flow) {
            this.flow = flow;
        }

        void register(Object w, long timeoutNanos) {
            if (timeoutNanos > 0) {
                registration = Waits.whenDoneWithdrawable(w, this);
                if (!live()) {
                    release();
                    return;
                }
                timeout = timer.schedule((Callable<Void>) this, timeoutNanos, TimeUnit.NANOSECONDS);
                if (!live()) {
                    release();
                }
            } else {
                Waits.whenDone(w, this);
            }
        }

        @Override
        boolean claim() {
            return CLAIMED.compareAndSet(this, 0, 1);
        }

        @Override
        boolean live() {
            return claimed == 0;
        }

        @Override
        void release() {
            ScheduledFuture<?> t = timeout;
            if (t != null) {
                t.cancel(false);
            }
            Object r = registration;
            if (r != null) {
                Waits.withdraw(r, this);
            }
        }

        @Override
        public void run() {
            if (claim()) {
                release();
                resumeClaimed(flow, true);
            }
        }

        @Override
        public void accept(Object value, Throwable failure) {
            run();
        }

        /** The timeout expired: the timer's task. */
        @Override
        public Void call() {
            if (claim()) {
                release();
                flow.markTimedOut();
                resumeClaimed(flow, true);
            }
            return null;
        }
    }
}
