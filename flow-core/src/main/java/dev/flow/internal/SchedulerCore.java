package dev.flow.internal;

import dev.flow.SuspendPolicy;
import dev.flow.spi.Awaitable;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;
import org.apache.commons.javaflow.core.StackRecorder;
import org.slf4j.Logger;

/**
 * The engine behind {@code FlowScheduler}: worker threads, a ready queue, a timer for timeouts, a
 * timing wheel for sleeps, the list of active flows and the counters.
 *
 * <p>Flows run on its workers; a completed awaited operation (on any thread, including a MINA I/O
 * processor) merely puts the flow back on the ready queue, unless it completes on a <em>carrier</em>
 * of this core ({@link #carrierThreadFactory}) or a shared one ({@link #sharedCarrierThreadFactory}),
 * which runs the flow inline (an adaptive carrier only the flows it may run). Every suspension has one
 * wake-up ({@link Ticket}); whoever claims it (the operation, a timeout, a cancel, {@link #close}) alone
 * resumes the flow, so a flow is touched by one thread at a time. After arming the wake-up, the
 * suspending worker no longer touches the flow.
 *
 * <p>A worker about to block in a pinned wait ({@link #beforePinnedWait()}) hands its slot of the ready
 * queue to a stand-in (a spare worker, or a new one), so the other flows keep {@link #workerCount()}
 * threads while it waits, as a {@code ForkJoinPool} compensates a managed blocker; it runs its flow on to
 * the next suspension or end, then becomes a spare itself. At most {@code maxPinnedThreads} worker threads
 * exist beyond the slots; a spare idle for {@link #SPARE_KEEP_ALIVE_NANOS} ends. Thread-safe.
 */
public final class SchedulerCore {

    private static final Logger LOG = Slf4j.logger(SchedulerCore.class);
    /**
     * With this many flows suspended, memory matters more than the cost of a capture: parked stacks
     * are packed ({@link StackTrimmer}: about 180 bytes saved per flow at depth 3, two small arrays
     * per park; the resumption unpacks into its thread's spare arrays).
     */
    static final int TRIM_THRESHOLD = 1024;
    private static final VarHandle WORKER_CURRENT;
    private static final VarHandle COARSE_NOW;
    /** {@link #coarseNow} while the clock is not ticking. */
    private static final int STALE = Integer.MIN_VALUE;
    /**
     * The period of the coarse clock: the dump's "suspended for" is at most this much too long. A
     * millisecond cost a timer wake-up per millisecond, about 1% of a busy server's CPU.
     */
    static final long TICK_NANOS = 10_000_000L;
    /**
     * At most this many flows run back to back inline on a carrier per wake-up; the rest go to the
     * ready queue, so that one chatty flow cannot starve the other sessions of an I/O thread.
     */
    static final int INLINE_RUNS = 32;
    /**
     * An adaptive carrier ({@link #carrierThreadFactory}) runs a flow only while its recent runs took at
     * most this long; two longer ones close together send the flow back to the workers ({@link
     * FlowState#countRun}).
     */
    static final long CARRIER_RUN_LIMIT_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** How long a spare worker ({@link #beforePinnedWait()}) waits to stand in for another before it ends. */
    static final long SPARE_KEEP_ALIVE_NANOS = TimeUnit.SECONDS.toNanos(30);
    /** The default of {@code maxPinnedThreads}: the most threads the JDK's virtual-thread scheduler adds by default. */
    public static final int DEFAULT_MAX_PINNED_THREADS = 256;
    /** The live shared carriers, of no core (see {@link #sharedCarrierThreadFactory}). */
    private static final Set<Carrier> SHARED_CARRIERS = ConcurrentHashMap.newKeySet();
    /** Set once an adaptive factory of shared carriers was made: from then on every core's flows may meet one. */
    private static volatile boolean sharedAdaptiveCarriers;

    static {
        try {
            WORKER_CURRENT = MethodHandles.lookup().findVarHandle(Runner.class, "current", FlowState.class);
            COARSE_NOW = MethodHandles.lookup().findVarHandle(SchedulerCore.class, "coarseNow", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String name;
    private final Object owner;
    private final ReadyQueue ready;
    /** Slot {@code i}'s worker, the one thread taking flows from slot {@code i} of {@link #ready}. */
    private final AtomicReferenceArray<Worker> workers;
    /** Every worker thread started and not yet ended: the slots' and those that handed theirs off. */
    private final Set<Worker> live = ConcurrentHashMap.newKeySet();
    /**
     * Workers that have left {@link #live} and may still be alive for a moment (a thread is alive until
     * its last instruction): {@link #close} and {@link #awaitTermination} join them too. Pruned of ended
     * threads at each addition.
     */
    private final Queue<Worker> ending = new ConcurrentLinkedQueue<>();
    /** Workers without a slot that wait to stand in for another (the most recent first). */
    private final ConcurrentLinkedDeque<Worker> spares = new ConcurrentLinkedDeque<>();
    /** Worker threads beyond the slots: running a flow in a pinned wait, or spare. */
    private final AtomicInteger extraWorkers = new AtomicInteger();
    private final int maxPinnedThreads;
    private final AtomicInteger workerIds = new AtomicInteger();
    private final boolean daemon;
    private final LongAdder handOffs = new LongAdder();
    /** Hand-offs of a carrier's loop ({@link #handOffCarrierLoop}) by flows of this core. */
    private final LongAdder loopHandOffs = new LongAdder();
    /** The live carrier threads of this core (see {@link #carrierThreadFactory}). */
    private final Set<Carrier> carriers = ConcurrentHashMap.newKeySet();
    private final AtomicInteger carrierIds = new AtomicInteger();
    /**
     * Set once an adaptive factory of this core's carriers was made. Until this core's flows may meet an
     * adaptive carrier ({@link #mayMeetAdaptiveCarriers()}), their runs on workers are not timed: nothing
     * would read the counts, and a flow not counted yet only waits longer before a carrier runs it.
     */
    private volatile boolean adaptiveCarriers;
    private final ScheduledThreadPoolExecutor timer;
    /**
     * Every thread the timer made: {@link #close} joins them, as the executor's own termination comes
     * just before its last thread ends.
     */
    private final Queue<Thread> timerThreads = new ConcurrentLinkedQueue<>();
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
    /** Plain atomics (no cells to allocate): counted also while the heap is exhausted. */
    private final AtomicLong workerErrors = new AtomicLong();
    private final AtomicLong outOfMemoryErrors = new AtomicLong();
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger suspended = new AtomicInteger();
    private final long epoch = System.nanoTime();
    /**
     * {@link #clock()} as of the last tick of the timer (every {@link #TICK_NANOS} while flows suspend), or
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
        this(name, workerCount, DEFAULT_MAX_PINNED_THREADS, policy, daemon, recordStacks, owner);
    }

    /**
     * Creates and starts a scheduler whose workers blocked in pinned waits are stood in for by at most
     * {@code maxPinnedThreads} more threads (0: a pinned wait holds its worker's slot).
     *
     * @param recordStacks whether each suspension records its stack for {@link #dump()}
     * @param owner the {@code FlowScheduler} this core runs for, returned by {@link #currentOwner()}
     */
    public SchedulerCore(String name, int workerCount, int maxPinnedThreads, SuspendPolicy policy, boolean daemon,
                         boolean recordStacks, Object owner) {
        this.name = name;
        this.maxPinnedThreads = maxPinnedThreads;
        this.daemon = daemon;
        this.owner = owner;
        this.policy = policy;
        this.recordStacks = recordStacks;
        this.flows = new FlowState(this, "list");
        flows.prev = flows;
        flows.next = flows;
        this.ready = new ReadyQueue(workerCount);
        this.workers = new AtomicReferenceArray<>(workerCount);
        for (int i = 0; i < workerCount; i++) {
            workers.set(i, newWorker(i));
        }
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, name + "-timer");
            t.setDaemon(true);
            timerThreads.add(t);
            return t;
        });
        this.timer.setRemoveOnCancelPolicy(true);
        this.sleeps = new SleepWheel(name + "-sleeps", this::survived);
        for (int i = 0; i < workerCount; i++) {
            Worker t = workers.get(i);
            live.add(t);
            t.start();
        }
    }

    /** A worker for {@code slot}, named after the next id, not started. */
    private Worker newWorker(int slot) {
        Worker t = new Worker(name + "-worker-" + workerIds.getAndIncrement(), slot);
        t.setDaemon(daemon);
        return t;
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
            f.contextLoader = task.getClass().getClassLoader();
            if (!UninstrumentedWaits.isStrict(task.getClass())) {
                // A lenient flow may reach a wait that cannot suspend: a carrier runs it only while its
                // loop can go on on another thread (CarrierLoop).
                f.markMayPin();
            }
        } else if (task instanceof Callable) {
            f.blocker = task;
            f.pinSite = Pins.notInstrumentedSite(task.getClass());
            f.neverOnCarrier();
        } else if (task instanceof Runnable) {
            Runnable r = (Runnable) task;
            f.blocker = (Callable<Object>) () -> {
                r.run();
                return null;
            };
            f.pinSite = Pins.notInstrumentedSite(task.getClass());
            f.neverOnCarrier();
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
     * A thread that runs flows of a core: a {@link Worker} or a {@link Carrier}. {@link #current} is
     * the flow it is running, for {@link FlowState#current()}, {@link #dump()} and {@link #cancel};
     * {@link #registering} is set while it registers the wake-up of a flow that has just suspended.
     */
    abstract static class Runner extends Thread {
        boolean registering;
        volatile FlowState current;
        /**
         * The continuation running on this thread, for {@link Engine#current()}; this thread only. It
         * is {@code current.continuation} while that runs, kept in a field of its own so that the
         * lookup at every instrumented method entry is one load.
         */
        StackRecorder recorder;
        /** The stack arrays this thread lends to the flows it runs ({@link StackTrimmer}); this thread only. */
        final StackTrimmer.Spare spare = new StackTrimmer.Spare();

        Runner(Runnable target, String name) {
            super(target, name);
        }
    }

    /**
     * A worker thread. {@link #next} holds a flow woken on this worker while it registered the flow's
     * wake-up (the awaited operation completed meanwhile): the worker runs it next itself instead of
     * handing it to the shared queue and waking another worker for nothing. A worker that handed its
     * slot off ({@link #beforePinnedWait()}) runs its flow to the end of that run, then waits as a spare.
     */
    private final class Worker extends Runner {
        FlowState next;
        /**
         * This worker's slot in the {@link ReadyQueue}, or {@code -1} while it has none: set to {@code -1}
         * by this thread only, and to a slot before a spare is unparked.
         */
        volatile int slot;

        Worker(String name, int slot) {
            super(null, name);
            this.slot = slot;
        }

        SchedulerCore core() {
            return SchedulerCore.this;
        }

        @Override
        public void run() {
            try {
                for (;;) {
                    int s = slot;
                    if (s < 0) {
                        if (awaitSlot()) {
                            continue;
                        }
                        return;
                    }
                    try {
                        FlowState f = next;
                        if (f != null) {
                            next = null;
                        } else {
                            f = ready.take(s);
                            if (f == null) {
                                return;
                            }
                        }
                        runSurviving(f, this);
                    } catch (Throwable t) {
                        // Only an error outside any flow (out of memory in the queue) gets here.
                        survived(t);
                    }
                }
            } finally {
                ended(this);
            }
        }

        /**
         * Waits as a spare until handed a slot ({@code true}), or ends ({@code false}) once the scheduler
         * has terminated or after {@link #SPARE_KEEP_ALIVE_NANOS} with none. A spare taken off the list
         * by a hand-off always gets its slot, so it leaves only by taking itself off.
         */
        private boolean awaitSlot() {
            try {
                spares.addFirst(this);
            } catch (OutOfMemoryError e) {
                countOutOfMemory(e);
                extraWorkers.decrementAndGet();
                return false;
            }
            long deadline = System.nanoTime() + SPARE_KEEP_ALIVE_NANOS;
            for (;;) {
                if (slot >= 0) {
                    return true;
                }
                long left = deadline - System.nanoTime();
                if ((terminated.get() || left <= 0) && spares.remove(this)) {
                    extraWorkers.decrementAndGet();
                    return false;
                }
                // No flow of its own to keep an interrupt for (the next run clears a stray one anyway).
                Thread.interrupted();
                LockSupport.parkNanos(this, left > 0 ? left : TimeUnit.MILLISECONDS.toNanos(1));
            }
        }
    }

    /**
     * Called on a thread about to block in a pinned wait (a wait that cannot suspend): if it is a worker
     * holding a slot, it hands the slot to a spare worker or, up to {@code maxPinnedThreads} threads beyond
     * the slots, a new one, so that the other flows keep every slot served while it waits. The calling
     * thread keeps its flow and runs it on; afterwards it waits as a spare. Elsewhere it does nothing.
     */
    static void beforePinnedWait() {
        Thread t = Thread.currentThread();
        if (t instanceof Worker) {
            Worker w = (Worker) t;
            w.core().handOffSlot(w);
        }
    }

    private void handOffSlot(Worker w) {
        int s = w.slot;
        if (s < 0 || terminated.get()) {
            return;
        }
        Worker standIn = spares.pollFirst();
        if (standIn != null) {
            w.slot = -1;
            workers.set(s, standIn);
            standIn.slot = s;
            LockSupport.unpark(standIn);
            handOffs.increment();
            return;
        }
        for (;;) {
            int extra = extraWorkers.get();
            if (extra >= maxPinnedThreads) {
                return;
            }
            if (extraWorkers.compareAndSet(extra, extra + 1)) {
                break;
            }
        }
        w.slot = -1;
        try {
            standIn = newWorker(s);
            live.add(standIn);
            standIn.start();
        } catch (OutOfMemoryError e) {
            // No thread to be had (the process's or the machine's limit): the wait holds the slot.
            countOutOfMemory(e);
            if (standIn != null) {
                live.remove(standIn);
            }
            w.slot = s;
            extraWorkers.decrementAndGet();
            return;
        }
        workers.set(s, standIn);
        handOffs.increment();
    }

    /**
     * Runs {@code f} once on {@code runner}. {@link #runOnce} handles every failure of a flow itself,
     * so anything caught here is a bug in Flow or the heap running out: the thread survives it and
     * reports it.
     */
    private void runSurviving(FlowState f, Runner runner) {
        try {
            runOnce(f, runner);
        } catch (Throwable t) {
            survived(t, runner, f);
        }
    }

    /**
     * An error one of this core's threads (a worker, the timer, the sleep wheel) survived outside any
     * flow: counted and logged, never rethrown, so the thread goes on.
     */
    void survived(Throwable t) {
        survived(t, Thread.currentThread(), null);
    }

    /** Counts and logs an error {@code thread} survived, while running flow {@code f} if not {@code null}. */
    private void survived(Throwable t, Thread thread, FlowState f) {
        workerErrors.incrementAndGet();
        countOutOfMemory(t);
        try {
            LOG.error("flow scheduler '{}': {} survived an unexpected error{}", name, thread.getName(),
                    f == null ? "" : " while running " + f, t);
        } catch (Throwable again) {
            // Out of memory again while logging: the count above is all that can be kept.
        }
    }

    /** Counts {@code t} if it is an {@link OutOfMemoryError}; allocates nothing. */
    private void countOutOfMemory(Throwable t) {
        if (t instanceof OutOfMemoryError) {
            outOfMemoryErrors.incrementAndGet();
        }
    }

    private void runOnce(FlowState f, Runner worker) {
        running.incrementAndGet();
        Thread.interrupted();
        if (f.interrupted()) {
            f.interrupted(false);
            worker.interrupt();
        }
        if (f.continuation == null) {
            // A cancel interrupts the worker of a task that cannot suspend: it must see it here.
            worker.current = f;
        } else {
            // For a continuation only this thread (FlowState.current()) and dump() read it: no fence
            // per resumption.
            WORKER_CURRENT.setRelease(worker, f);
        }
        boolean finished = true;
        Object value = null;
        Throwable failure = null;
        try {
            if (f.stop != 0 && !f.begun()) {
                failure = new CancellationException("flow cancelled");
            } else if (f.continuation == null) {
                f.markBegun();
                Callable<?> task = (Callable<?>) f.blocker;
                f.blocker = null;
                try {
                    value = task.call();
                } catch (Throwable t) {
                    failure = t;
                }
            } else {
                f.markBegun();
                boolean suspendedAgain = false;
                // Timed on an adaptive carrier, and on a worker until the flow may go to one (if any exists).
                boolean timed = worker instanceof Carrier ? ((Carrier) worker).adaptive
                        : f.countsRuns() && mayMeetAdaptiveCarriers();
                long start = timed ? System.nanoTime() : 0;
                // The flow's context class loader, as its class loaded normally would see on a plain thread
                // (ServiceLoader lookups find the loader's classes, not the parent's copies).
                ClassLoader workers = worker.getContextClassLoader();
                worker.setContextClassLoader(f.contextLoader);
                try {
                    suspendedAgain = Engine.resume(f.continuation, worker);
                } catch (Throwable t) {
                    failure = t;
                } finally {
                    f.contextLoader = worker.getContextClassLoader();
                    worker.setContextClassLoader(workers);
                }
                if (timed) {
                    f.countRun(System.nanoTime() - start, CARRIER_RUN_LIMIT_NANOS);
                }
                if (suspendedAgain) {
                    finished = false;
                } else if (failure == null) {
                    try {
                        value = f.outcome().call();
                    } catch (Throwable t) {
                        failure = t;
                    }
                }
            }
        } finally {
            if (f.continuation == null) {
                // Under the flow's lock, so that a cancel cannot interrupt the worker once it has
                // moved on to another flow.
                synchronized (f) {
                    worker.current = null;
                }
            } else {
                WORKER_CURRENT.setRelease(worker, null);
            }
            f.interrupted(Thread.interrupted());
            endPinnedWait(f, worker);
        }
        if (finished) {
            running.decrementAndGet();
            finish(f, value, failure);
        } else {
            park(f, worker);
        }
    }

    /**
     * Ends a pinned wait still open as {@code f} leaves its worker (one the JDK made, outside any pinned
     * stretch). An error here is Flow's own (a class that cannot load once the process is out of file
     * descriptors): survived and reported, and the flow still parks or ends.
     */
    private void endPinnedWait(FlowState f, Runner worker) {
        try {
            FlowEvents.pinnedWaitEnds();
        } catch (Throwable t) {
            survived(t, worker, f);
        }
    }

    /**
     * Ends {@code f} with {@code value}, or with {@code failure} if not {@code null}. An error thrown while
     * its deferred output goes out (a sender must not throw, but may run out of memory) becomes its
     * failure: a flow is always ended, never lost with its handle open and its count active.
     */
    private void finish(FlowState f, Object value, Throwable failure) {
        // What the flow's transports deferred goes out before its end is seen (a handler's server closes
        // the session then).
        try {
            f.sendDeferred();
        } catch (Throwable t) {
            if (failure == null) {
                failure = t;
            } else if (failure != t) {
                failure.addSuppressed(t);
            }
        }
        countOutOfMemory(failure);
        f.continuation = null;
        f.interrupted(false);
        f.contextLoader = null;
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
    private void park(FlowState f, Runner worker) {
        Object w = f.blocker;
        long timeout = f.timeoutNanos();
        f.since = coarseClock();
        if (suspended.incrementAndGet() >= TRIM_THRESHOLD) {
            try {
                Engine.pack(f.continuation, worker);
            } catch (Throwable t) {
                // Packing only trims the saved stack: out of memory there, the flow parks unpacked.
                survived(t, worker, f);
            }
        }
        running.decrementAndGet();
        Wakeup wakeup = timeout == 0 && !f.stale() ? null : new Wakeup(f);
        // Arms the wake-up: the flow itself, or a Wakeup.
        f.ticket = wakeup == null ? f : wakeup;
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
            countOutOfMemory(t);
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
            if (w.registering && w.next == null && ready.isEmpty() && w.core() == this && w.slot >= 0) {
                // Runs next on this worker: never queued, so no "ready since" for dump().
                w.next = f;
                return;
            }
        } else if (t instanceof Carrier && ((Carrier) t).runs(this) && !closing && ((Carrier) t).mayRun(f)) {
            runInline(f, (Carrier) t);
            return;
        }
        handOff(f);
    }

    private void handOff(FlowState f) {
        f.since = coarseClock();
        ready.add(f);
    }

    /**
     * Runs {@code f}, just woken on carrier {@code c}, right here. A carrier already running a flow
     * (a flow woken by the running one, or by itself while it registered its wake-up) only queues it
     * locally: the outer call runs it once the running flow has parked or ended, so that flows never
     * nest on one stack. After {@link #INLINE_RUNS} runs the rest go to the ready queue. The carrier's
     * own interrupt status is kept across the flows it runs. Each flow runs and is handed off by its
     * own core: a shared carrier's queue may hold flows of several. If a flow handed the carrier's loop
     * off ({@link #handOffCarrierLoop}), the flows after it go to the ready queue, and the carrier takes
     * its loop back before it returns.
     */
    private void runInline(FlowState f, Carrier c) {
        if (c.busy) {
            c.local.add(f);
            return;
        }
        c.busy = true;
        boolean interrupted = Thread.interrupted();
        try {
            int runs = 0;
            for (FlowState g = f; g != null; g = c.local.poll()) {
                SchedulerCore core = g.scheduler;
                if (runs++ >= INLINE_RUNS || core.stopping || c.loopHandedOff) {
                    core.handOff(g);
                    continue;
                }
                core.runSurviving(g, c);
            }
        } finally {
            for (FlowState g; (g = c.local.poll()) != null; ) {
                g.scheduler.handOff(g);
            }
            c.busy = false;
            if (c.loopHandedOff) {
                c.loopHandedOff = false;
                c.loop.reclaim();
            }
            if (interrupted) {
                c.interrupt();
            }
        }
    }

    /**
     * Returns a factory of <em>carriers</em>: threads, not workers, that run this core's flows inline
     * when they wake them (an I/O thread that completes a flow's read resumes the flow itself instead
     * of handing it to a worker). Flows still start on workers, and flows woken by anything else
     * (timers, sleeps, other threads) resume on workers; a flow thus moves between threads, one at a
     * time. A wait already over when the carrier registers its wake-up (a sleep that ended, a future
     * completed meanwhile) goes on on the carrier. With {@code adaptive}, a carrier runs a woken flow
     * inline only if its recent runs were short (at most {@link #CARRIER_RUN_LIMIT_NANOS} each, {@link
     * FlowState#mayRunOnCarrier()}), it never blocked in a pinned wait, and, if its task was instrumented
     * lenient (its waits may pin), the loop running on the carrier can go on on another thread while it
     * blocks ({@link #bindCarrierLoop}); it hands every other flow to the workers. Threads are named
     * {@code namePrefix-N}, not daemon.
     */
    public ThreadFactory carrierThreadFactory(String namePrefix, boolean adaptive) {
        return carrierThreadFactory(this, namePrefix, adaptive, carrierIds, carriers);
    }

    /**
     * Returns a factory of <em>shared</em> carriers: like {@link #carrierThreadFactory}'s, but of no
     * core, so they run inline the flows of every core they wake (each flow counted, timed and handed
     * off by its own core). For a transport whose I/O threads serve flows of several schedulers (a
     * client connector). Threads are named {@code namePrefix-N}, not daemon.
     */
    public static ThreadFactory sharedCarrierThreadFactory(String namePrefix, boolean adaptive) {
        return carrierThreadFactory(null, namePrefix, adaptive, new AtomicInteger(), SHARED_CARRIERS);
    }

    private static ThreadFactory carrierThreadFactory(SchedulerCore core, String namePrefix, boolean adaptive,
            AtomicInteger ids, Set<Carrier> live) {
        Objects.requireNonNull(namePrefix, "namePrefix");
        if (adaptive && core == null) {
            sharedAdaptiveCarriers = true;
        } else if (adaptive) {
            core.adaptiveCarriers = true;
        }
        return r -> {
            Carrier c = new Carrier(core, r, namePrefix + "-" + ids.incrementAndGet(), adaptive, live);
            // Like MINA's own I/O threads, whatever the creating thread is.
            c.setDaemon(false);
            live.add(c);
            return c;
        };
    }

    /** Whether an adaptive carrier that may run this core's flows was ever made. */
    private boolean mayMeetAdaptiveCarriers() {
        return adaptiveCarriers || sharedAdaptiveCarriers;
    }

    /**
     * The carrier running a flow on the calling thread, or {@code null}: a wait that would block there
     * stalls the carrier's other duties (every session of an I/O thread).
     */
    static Thread busyCarrier() {
        Thread t = Thread.currentThread();
        return t instanceof Carrier && ((Carrier) t).current != null ? t : null;
    }

    /**
     * Binds {@code loop}, the event loop running on the calling thread, to it if it is an adaptive
     * carrier: a pinned wait of a flow it runs inline then hands the loop to another thread ({@link
     * CarrierLoop#handOff()}) instead of being refused, and it runs lenient flows inline while {@link
     * CarrierLoop#mayHandOff()} holds. Elsewhere it does nothing. Called by the loop at each turn.
     */
    public static void bindCarrierLoop(CarrierLoop loop) {
        Thread t = Thread.currentThread();
        if (t instanceof Carrier) {
            Carrier c = (Carrier) t;
            if (c.adaptive && c.loop != loop) {
                c.loop = loop;
            }
        }
    }

    /**
     * Called on {@code carrier}, running a flow, before the flow blocks in a pinned wait: hands its loop
     * to another thread until the run is over ({@link #runInline}); returns whether it did (or had
     * already in this run).
     */
    static boolean handOffCarrierLoop(Thread carrier) {
        Carrier c = (Carrier) carrier;
        if (c.loopHandedOff) {
            return true;
        }
        CarrierLoop loop = c.loop;
        if (loop == null || !loop.handOff()) {
            return false;
        }
        c.loopHandedOff = true;
        c.current.scheduler.loopHandOffs.increment();
        return true;
    }

    /**
     * A thread of a transport that runs the flows of {@link #core} it wakes, or of every core if it is a
     * shared carrier; see {@link #carrierThreadFactory}. {@link #busy}, {@link #local}, {@link #loop} and
     * {@link #loopHandedOff} are used by this thread only.
     */
    static final class Carrier extends Runner {
        /** The core whose flows this carrier runs, or {@code null} for a shared carrier (every core's). */
        final SchedulerCore core;
        /** Whether this carrier runs only the flows {@link FlowState#mayRunOnCarrier()} allows. */
        final boolean adaptive;
        /** The set of live carriers this one is in, until it ends. */
        private final Set<Carrier> live;
        boolean busy;
        final ArrayDeque<FlowState> local = new ArrayDeque<>(4);
        /** The loop running on this adaptive carrier, or {@code null} (see {@link #bindCarrierLoop}). */
        CarrierLoop loop;
        /** Whether the flow running now handed {@link #loop} off, which this thread takes back after the run. */
        boolean loopHandedOff;

        Carrier(SchedulerCore core, Runnable target, String name, boolean adaptive, Set<Carrier> live) {
            super(target, name);
            this.core = core;
            this.adaptive = adaptive;
            this.live = live;
        }

        /** Whether this carrier runs the flows of {@code c} inline. */
        boolean runs(SchedulerCore c) {
            return core == c || core == null;
        }

        /**
         * Whether this carrier runs {@code f}, just woken here, inline: an adaptive one only a flow whose
         * recent runs were short and, if its waits may pin, only while it can hand its loop off.
         */
        boolean mayRun(FlowState f) {
            if (!adaptive) {
                return true;
            }
            if (!f.mayRunOnCarrier()) {
                return false;
            }
            CarrierLoop l = loop;
            return !f.mayPin() || l != null && l.mayHandOff();
        }

        @Override
        public void run() {
            try {
                super.run();
            } finally {
                live.remove(this);
            }
        }
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
                // A task that cannot suspend runs start to end on the worker that took it from the
                // queue (it is never resumed, so never on a carrier).
                for (Worker w : live) {
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
        Thread self = Thread.currentThread();
        boolean onWorker = isWorker(self) || self instanceof Carrier && runsOwnFlow((Carrier) self);
        try {
            if (!onWorker && graceNanos > 0) {
                termination.await(graceNanos, TimeUnit.NANOSECONDS);
            }
            stopAll();
            if (!onWorker) {
                termination.await();
                while (!live.isEmpty()) {
                    for (Worker w : live) {
                        w.join();
                    }
                }
                for (Worker w : ending) {
                    w.join();
                }
                timer.awaitTermination(Long.MAX_VALUE, TimeUnit.NANOSECONDS);
                for (Thread t : timerThreads) {
                    t.join();
                }
                sleeps.awaitTermination(0);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopAll();
        }
    }

    /**
     * Whether {@code c} is a carrier of this core, or a shared one now running a flow of this core: a
     * {@link #close} there must not wait for that flow.
     */
    private boolean runsOwnFlow(Carrier c) {
        FlowState running = c.current;
        return c.core == this || c.core == null && running != null && running.scheduler == this;
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

    /**
     * Moves {@code w}, whose run is over, from {@link #live} to {@link #ending}: in that order, so that a
     * close that finds {@code live} empty finds every worker still alive in {@code ending}.
     */
    private void ended(Worker w) {
        ending.removeIf(t -> !t.isAlive());
        ending.add(w);
        live.remove(w);
    }

    private void terminate() {
        if (!terminated.compareAndSet(false, true)) {
            return;
        }
        ready.close();
        for (Worker w : spares) {
            LockSupport.unpark(w);
        }
        timer.shutdownNow();
        sleeps.close();
        termination.countDown();
    }

    /** Milliseconds since the scheduler started, for {@link FlowState#since}. */
    int clock() {
        return (int) ((System.nanoTime() - epoch) / 1_000_000L);
    }

    /**
     * {@link #clock()} to within a tick ({@link #TICK_NANOS}), without reading the system clock: a
     * field refreshed by the timer every tick for as long as it is read (a tick that finds it unread
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
        } catch (OutOfMemoryError e) {
            // Not ticking: the next read of the clock starts it again.
            coarseNow = STALE;
            survived(e);
        }
    }

    String closedMessage() {
        return "flow scheduler '" + name + "' closed";
    }

    /** Waits up to {@code millis} for the workers and the timer to stop; returns whether they did. */
    public boolean awaitTermination(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (!live.isEmpty()) {
            for (Thread t : live) {
                long left = millisLeft(deadline);
                if (left > 0) {
                    t.join(left);
                }
                if (t.isAlive()) {
                    return false;
                }
            }
        }
        for (Thread t : ending) {
            t.join(millisLeft(deadline) + 1);
            if (t.isAlive()) {
                return false;
            }
        }
        if (!timer.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
            return false;
        }
        for (Thread t : timerThreads) {
            t.join(millisLeft(deadline) + 1);
            if (t.isAlive()) {
                return false;
            }
        }
        return sleeps.awaitTermination(millisLeft(deadline) + 1);
    }

    /** Whole milliseconds from now to {@code deadline} (a {@link System#nanoTime()} value); 0 once it has passed. */
    private static long millisLeft(long deadline) {
        return TimeUnit.NANOSECONDS.toMillis(Math.max(0, deadline - System.nanoTime()));
    }

    /** Whether flows are waiting in the ready queue for a worker. */
    boolean hasQueuedFlows() {
        return !ready.isEmpty();
    }

    /** Number of workers. */
    public int workerCount() {
        return workers.length();
    }

    /** Whether {@code t} is one of this scheduler's worker threads (a stand-in and a spare included). */
    public boolean isWorker(Thread t) {
        return t instanceof Worker && ((Worker) t).core() == this;
    }

    /**
     * Counters, in the order started, completed, failed, resumed, active, running, suspended, queued,
     * workers alive, worker errors, out-of-memory errors, pinned hand-offs.
     */
    public long[] counters() {
        int alive = 0;
        for (int i = 0; i < workers.length(); i++) {
            if (workers.get(i).isAlive()) {
                alive++;
            }
        }
        // Read in this order, so that a snapshot is consistent where it matters: a flow counts as active
        // before it counts as started, and as completed or failed before it stops being active; so an idle
        // snapshot (no flow active) counts every flow it counts as started among the ended ones.
        long startedCount = started.sum();
        long activeCount = active.get();
        long runningCount = running.get();
        long suspendedCount = suspended.get();
        long queued = ready.size();
        return new long[] {startedCount, completed.sum(), failed.sum(), resumed.sum(),
            activeCount, runningCount, suspendedCount, queued, alive, workerErrors.get(),
            outOfMemoryErrors.get(), handOffs.sum(), loopHandOffs.sum()};
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
        List<Runner> runners = new ArrayList<>(live);
        runners.addAll(carriers);
        runners.addAll(SHARED_CARRIERS);
        for (Runner w : runners) {
            FlowState f = w.current;
            if (f != null && f.scheduler == this) {
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
                releaseSurviving();
                resumeClaimed(flow, true);
            }
        }

        /** {@link #release()}, whose failure (out of memory) must not keep the claimed flow from resuming. */
        private void releaseSurviving() {
            try {
                release();
            } catch (Throwable t) {
                survived(t);
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
                releaseSurviving();
                flow.markTimedOut();
                resumeClaimed(flow, true);
            }
            return null;
        }
    }
}
