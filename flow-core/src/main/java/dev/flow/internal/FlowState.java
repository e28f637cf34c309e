package dev.flow.internal;

import dev.flow.SuspendPolicy;
import dev.flow.spi.Awaitable;
import java.io.InterruptedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.function.BiConsumer;
import org.apache.commons.javaflow.core.StackRecorder;

/**
 * The state of one flow: its continuation, what it waits for, its interrupt status, its pin state and
 * flow-local values.
 *
 * <p>Touched by one worker at a time; the hand-over between workers goes through the scheduler's
 * ready queue, which publishes all writes. Its public methods are what the per-loader copies of
 * {@link Awaits} and {@code FlowLocal} need; none of them can complete or resume a flow.
 *
 * <p>An object per flow, so its size is what a suspended flow costs beyond its saved stack: 64 bytes
 * (compressed references). That is why the flags and the carrier counts are bits of two small fields
 * ({@code flags}, {@code runs}), written only by whoever owns the flow, and why the wake-up is armed in
 * {@code ticket} itself rather than in a field of its own.
 */
public final class FlowState extends Ticket implements Runnable, BiConsumer<Object, Throwable> {

    /** Suspension mode of {@code join()}-like waits: a cancelled flow gets a {@link CancellationException}. */
    public static final int UNINTERRUPTIBLE = 0;
    /** Suspension mode of interruptible waits: a cancelled flow gets an {@link InterruptedException}. */
    public static final int INTERRUPTIBLE = 1;
    /** Suspension mode of transport I/O: a cancelled flow gets an {@link InterruptedIOException}. */
    public static final int IO = 2;

    static final byte CANCELLED = 1;

    // The bits of flags.
    private static final int MODE_BITS = 3;
    /** The last wait timed out. */
    private static final int TIMED_OUT = 4;
    /** The flow was woken by something other than its own callback: old callbacks may still fire. */
    private static final int STALE = 8;
    /** The flow has started running. */
    private static final int BEGUN = 16;
    /** The flow's interrupt status while it is not on a worker. */
    private static final int INTERRUPTED = 32;
    /** See {@link #decoratedReady()}. */
    private static final int DECORATED_READY = 64;
    /** See {@link #mayPin()}. */
    private static final int MAY_PIN = 128;

    private static final VarHandle TICKET;

    static {
        try {
            TICKET = MethodHandles.lookup().findVarHandle(FlowState.class, "ticket", Ticket.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final SchedulerCore scheduler;
    final FlowResult result;

    /** The continuation; {@code null} for a task that was not instrumented (and once the flow ended). */
    StackRecorder continuation;
    /** Current pin site, or {@link Pins#NOT_PINNED}. */
    int pinSite = Pins.NOT_PINNED;

    /**
     * What the flow waits for; a {@link Failed} once registering its wake-up failed. Before a flow
     * starts, its task: a continuation's, which {@link FlowRoot} takes ({@link #startingTask()}), or
     * a {@link Callable} that was not instrumented, which the scheduler takes. Once a continuation
     * ended, its outcome ({@link #outcome()}). One field for the three, so that a flow stays 64 bytes.
     */
    Object blocker;
    /**
     * The suspension mode ({@link #MODE_BITS}) and the bits {@link #TIMED_OUT}, {@link #STALE}, {@link
     * #BEGUN}, {@link #INTERRUPTED}, {@link #DECORATED_READY} and {@link #MAY_PIN}; owned by whoever owns
     * the flow (its worker, or whoever claimed its wake-up), and written by no one else, so plain writes of
     * the whole byte lose nothing.
     */
    private byte flags;
    /**
     * For an adaptive carrier ({@link SchedulerCore#carrierThreadFactory}), three counts ({@link
     * #countRun}); owned by whoever runs the flow:
     * <ul>
     *   <li>bits 0-6, {@link #shortRuns()}: how many runs in a row were short, up to {@link #FORGIVE_AFTER};
     *   <li>bits 7-11, {@link #sinceLongRun()}: short runs since the last long one, up to {@link
     *       #LONG_RUN_WINDOW} (where it starts: none yet);
     *   <li>bits 12-14, {@link #runsShift()}: {@link #NEVER_ON_CARRIER}, or how many short runs in a row an
     *       adaptive carrier asks for before it runs the flow, as a power of two: {@link #FIRST_RUNS_SHIFT}
     *       at the start, one more (up to {@link #MAX_RUNS_SHIFT}) after each long run.
     * </ul>
     */
    private short runs = runs(0, LONG_RUN_WINDOW, FIRST_RUNS_SHIFT);
    /**
     * The flow's context class loader while it is not on a worker: its task's loader at the start (for an
     * instrumented task), then whatever the flow set; worker-owned.
     */
    ClassLoader contextLoader;
    /**
     * The wake-up of the current suspension: this flow itself, or a {@link SchedulerCore} {@code Wakeup}.
     * This flow as its own wake-up is armed while the field holds it: the callback that moves the field
     * to {@code null} claims it ({@link #claim()}).
     */
    volatile Ticket ticket;
    /** {@link #CANCELLED} once {@link #cancel()} was called. */
    volatile byte stop;
    /**
     * The scheduler's clock ({@link SchedulerCore#clock()}, to within a tick of its coarse clock) at the last
     * suspension, queueing or submission; read racily by {@code dump()} (an {@code int} is never
     * torn), hence not volatile.
     */
    int since;
    /** Neighbours in the scheduler's list of active flows; guarded by that list. */
    FlowState prev;
    FlowState next;
    /** The flow behind this one in the scheduler's {@link ReadyQueue}; owned by that queue. */
    FlowState readyNext;
    /** The name, the recorded site, the flow-locals and a timeout, which most flows never have; {@code null} until one is set. */
    private volatile Extras extras;

    /** {@link #runsShift()} of a flow an adaptive carrier never runs. */
    private static final int NEVER_ON_CARRIER = 7;
    /** {@link #runsShift()} at the start: two short runs (the start and one wake-up, on workers) first. */
    private static final int FIRST_RUNS_SHIFT = 1;
    /** The most {@link #runsShift()} grows to: 64 short runs in a row. */
    private static final int MAX_RUNS_SHIFT = 6;
    /** The streak of short runs after which {@link #runsShift()} shrinks by one. */
    private static final int FORGIVE_AFTER = 127;
    /**
     * A long run counts against a flow only if another came at most this many runs before it: one alone is
     * more often the thread preempted (two cores, more runnable threads) or a collection than the code.
     */
    private static final int LONG_RUN_WINDOW = 16;

    FlowState(SchedulerCore scheduler, String name) {
        this.scheduler = scheduler;
        this.result = new FlowResult(this);
        if (name != null) {
            extras = new Extras(name);
        }
    }

    /**
     * The flow running on this thread, or {@code null}: the flow of a worker or carrier while it
     * runs one ({@link SchedulerCore.Runner#current}), read from the thread, not a thread-local.
     */
    public static FlowState current() {
        Thread t = Thread.currentThread();
        return t instanceof SchedulerCore.Runner ? ((SchedulerCore.Runner) t).current : null;
    }

    /**
     * Whether this flow's waits may pin (its task was instrumented lenient): an adaptive carrier runs it
     * only while its loop can go on on another thread ({@link CarrierLoop}).
     */
    boolean mayPin() {
        return (flags & MAY_PIN) != 0;
    }

    /** Sets {@link #mayPin()}; before the flow starts. */
    void markMayPin() {
        flags |= MAY_PIN;
    }

    /** Keeps this flow off adaptive carriers for good (a task that cannot suspend, or a flow that pinned). */
    void neverOnCarrier() {
        runs = runs(shortRuns(), sinceLongRun(), NEVER_ON_CARRIER);
    }

    /**
     * Whether an adaptive carrier may run this flow: it may suspend wherever it waits, and its last runs
     * (at least {@code 2^runsShift} in a row) were each shorter than the carrier's limit.
     */
    boolean mayRunOnCarrier() {
        int shift = runsShift();
        return shift != NEVER_ON_CARRIER && shortRuns() >= 1 << shift;
    }

    /** Whether the run about to start counts towards {@link #mayRunOnCarrier()} if not on a carrier. */
    boolean countsRuns() {
        int shift = runsShift();
        return shift != NEVER_ON_CARRIER && shortRuns() < 1 << shift;
    }

    /**
     * Counts a run of {@code nanos}: a short one (at most {@code limitNanos}) adds to the streak. A long
     * one that comes within {@value #LONG_RUN_WINDOW} runs of another starts the streak again and doubles
     * the streak asked for; a long one alone is forgiven, and so is a long streak of short runs: {@value
     * #FORGIVE_AFTER} in a row halve the streak asked for again (down to the first one). So a session whose
     * code computes for long goes to the workers at its second long run, and rare long runs (the thread
     * preempted, a collection) do not keep it off its I/O thread.
     */
    void countRun(long nanos, long limitNanos) {
        int shift = runsShift();
        if (shift == NEVER_ON_CARRIER) {
            return;
        }
        int shortRuns = shortRuns();
        int sinceLongRun = sinceLongRun();
        if (nanos > limitNanos) {
            if (sinceLongRun < LONG_RUN_WINDOW) {
                shortRuns = 0;
                shift = Math.min(shift + 1, MAX_RUNS_SHIFT);
            }
            runs = runs(shortRuns, 0, shift);
            return;
        }
        if (sinceLongRun < LONG_RUN_WINDOW) {
            // Counted only up to the window: whether the last long run is within it is all that matters.
            sinceLongRun++;
        }
        if (shortRuns < FORGIVE_AFTER) {
            shortRuns++;
        } else if (shift > FIRST_RUNS_SHIFT) {
            shift--;
            shortRuns = 1 << shift;
        }
        runs = runs(shortRuns, sinceLongRun, shift);
    }

    private int shortRuns() {
        return runs & 0x7F;
    }

    private int sinceLongRun() {
        return (runs >>> 7) & 0x1F;
    }

    private int runsShift() {
        return (runs >>> 12) & 0x7;
    }

    private static short runs(int shortRuns, int sinceLongRun, int runsShift) {
        return (short) (shortRuns | sinceLongRun << 7 | runsShift << 12);
    }

    /** Whether the flow has started running; worker-owned. */
    boolean begun() {
        return (flags & BEGUN) != 0;
    }

    /** Marks that the flow has started running; by its worker. */
    void markBegun() {
        flags |= BEGUN;
    }

    /** The flow's interrupt status while it is not on a worker. */
    boolean interrupted() {
        return (flags & INTERRUPTED) != 0;
    }

    /** Sets {@link #interrupted()}; by the flow's worker as it leaves or takes the flow. */
    void interrupted(boolean interrupted) {
        flags = (byte) (interrupted ? flags | INTERRUPTED : flags & ~INTERRUPTED);
    }

    /**
     * Whether a JDK decorator made outside the scope is reading what {@code Awaits.awaitDecorated} made
     * sure is buffered: its calls of the transport view do not wait, so they are not pinned waits. Public
     * only because each class loader's copy of {@code Awaits} calls it.
     */
    public boolean decoratedReady() {
        return (flags & DECORATED_READY) != 0;
    }

    /** Sets {@link #decoratedReady()}. Public only because each class loader's copy of {@code Awaits} calls it. */
    public void decoratedReady(boolean ready) {
        flags = (byte) (ready ? flags | DECORATED_READY : flags & ~DECORATED_READY);
    }

    /**
     * For {@link FlowRoot}: takes the task of the flow starting on this thread.
     *
     * @throws IllegalStateException if no flow is starting on this thread
     */
    public static FlowTask startingTask() {
        FlowState f = current();
        Object t = f == null ? null : f.blocker;
        if (!(t instanceof FlowTask)) {
            throw new IllegalStateException("no flow is starting on this thread");
        }
        f.blocker = null;
        return (FlowTask) t;
    }

    /** For {@link FlowRoot}: the task of the flow running on this thread returned {@code value}. */
    public static void taskReturned(Object value) {
        current().blocker = new Outcome(value, null);
    }

    /** For {@link FlowRoot}: the task of the flow running on this thread threw {@code failure}. */
    public static void taskThrew(Throwable failure) {
        current().blocker = new Outcome(null, failure);
    }

    /** Returns something that completes {@code nanos} from now, driven by this flow's scheduler. */
    public Awaitable sleep(long nanos) {
        return scheduler.sleep(nanos);
    }

    /**
     * Asks the flow to stop: it gets an exception at its current or next suspension point (see the
     * modes) and its result completes with a {@link CancellationException} when it ends.
     *
     * @return {@code false} if the flow had already ended or been cancelled
     */
    public boolean cancel() {
        return scheduler.cancel(this);
    }

    /**
     * Prepares the flow running on this thread to suspend on {@code w} (see {@link #beforeSuspend(Object,
     * long, int)}), unless there is none or a lock it holds pins it.
     *
     * @return the flow, which the caller must now suspend; {@code null} if the caller must block instead
     */
    public static FlowState prepare(Object w, long timeoutNanos, int mode) {
        FlowState f = current();
        if (f == null) {
            return null;
        }
        // Whether it suspends or blocks, the flow is about to wait: what it deferred goes out first.
        f.sendDeferred();
        if (Locks.pins(f) || !f.beforeSuspend(w, timeoutNanos, mode)) {
            return null;
        }
        return f;
    }

    /**
     * Prepares an uninterruptible suspension on {@code w}; see {@link #beforeSuspend(Object, long, int)}.
     */
    public boolean beforeSuspend(Object w, long timeoutNanos) {
        return beforeSuspend(w, timeoutNanos, UNINTERRUPTIBLE);
    }

    /**
     * Prepares to suspend on {@code w}: applies the pin state and the suspend policy.
     *
     * @param mode {@link #UNINTERRUPTIBLE}, {@link #INTERRUPTIBLE} or {@link #IO}: which exception a
     *     cancelled flow gets
     * @return {@code true} if the caller must now suspend; {@code false} if it must block instead
     *     (or {@code w} completed during the policy's wait)
     * @throws CancellationException if the flow was cancelled (uninterruptible) or its scheduler is
     *     closing; {@link InterruptedException} or {@link InterruptedIOException} if the flow was
     *     cancelled, in those modes (thrown although not declared)
     */
    public boolean beforeSuspend(Object w, long timeoutNanos, int mode) {
        throwIfStopped(mode);
        if (pinSite != Pins.NOT_PINNED) {
            Pins.onPinnedAwait(pinSite);
            return false;
        }
        if (continuation == null) {
            return false;
        }
        SuspendPolicy p = scheduler.policy();
        if ((p.kind() == SuspendPolicy.Kind.AFTER || p.kind() == SuspendPolicy.Kind.ADAPTIVE)
                && (scheduler.hasQueuedFlows() || SchedulerCore.busyCarrier() != null)) {
            // Waiting or spinning first only pays while the worker has nothing else to do; with
            // other flows ready it would starve them (one connection served, the others waiting),
            // and on a carrier it would stall the sessions of its I/O thread.
            p = SuspendPolicy.immediately();
        }
        switch (p.kind()) {
            case NEVER:
                return false;
            case AFTER:
                long wait = p.waitNanos();
                if (timeoutNanos > 0 && timeoutNanos < wait) {
                    wait = timeoutNanos;
                }
                if (Waits.block(w, wait)) {
                    return false;
                }
                break;
            case ADAPTIVE:
                if (spin(w, p)) {
                    return false;
                }
                break;
            default:
                break;
        }
        this.blocker = w;
        Extras x = extras;
        if (timeoutNanos > 0) {
            extras().timeoutNanos = timeoutNanos;
        } else if (x != null) {
            x.timeoutNanos = 0;
        }
        this.flags = (byte) ((flags & ~(MODE_BITS | TIMED_OUT)) | mode);
        if (scheduler.recordsStacks()) {
            extras().site = FlowDumper.userFrames();
        }
        return true;
    }

    private static boolean spin(Object w, SuspendPolicy p) {
        for (int i = p.spins(); i > 0; i--) {
            Thread.onSpinWait();
            if (Waits.isDone(w)) {
                return true;
            }
        }
        for (int i = p.yields(); i > 0; i--) {
            Thread.yield();
            if (Waits.isDone(w)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Called after resuming.
     *
     * @return {@code false} if the wait timed out
     * @throws CancellationException (or the exception of the suspension's mode) if the flow was
     *     cancelled or its scheduler closed while it was suspended; whatever registering its wake-up
     *     threw (e.g. a broken {@code Awaitable.whenDone}), unchanged
     */
    public boolean afterResume() {
        Object b = blocker;
        blocker = null;
        throwIfStopped(flags & MODE_BITS);
        if (b instanceof Failed) {
            throw Sneaky.<RuntimeException>raise(((Failed) b).cause);
        }
        return (flags & TIMED_OUT) == 0;
    }

    private void throwIfStopped(int mode) {
        if (stop == 0 && !scheduler.stopping) {
            return;
        }
        if (stop == 0) {
            throw new CancellationException(scheduler.closedMessage());
        }
        if (mode == INTERRUPTIBLE) {
            throw Sneaky.<RuntimeException>raise(new InterruptedException("flow cancelled"));
        }
        if (mode == IO) {
            throw Sneaky.<RuntimeException>raise(new InterruptedIOException("flow cancelled"));
        }
        throw new CancellationException("flow cancelled");
    }

    /** The timeout of the current wait in nanoseconds, {@code 0} for none. */
    long timeoutNanos() {
        Extras x = extras;
        return x == null ? 0 : x.timeoutNanos;
    }

    /** Whether callbacks of earlier waits may still fire: its next wake-up must be one of its own. */
    boolean stale() {
        return (flags & STALE) != 0;
    }

    /** Marks that the flow is woken by something other than its own callback; by whoever claimed its wake-up. */
    void markStale() {
        flags |= STALE;
    }

    /** Marks that the current wait timed out; by whoever claimed its wake-up. */
    void markTimedOut() {
        flags |= TIMED_OUT | STALE;
    }

    @Override
    boolean claim() {
        return TICKET.compareAndSet(this, (Ticket) this, (Ticket) null);
    }

    @Override
    boolean live() {
        return ticket == this;
    }

    @Override
    void release() {
        // Nothing registered that can be withdrawn: the callback stays until its operation completes.
    }

    /** Wake-up callback for awaits without a timeout (the common case): no allocation per suspension. */
    @Override
    public void run() {
        if (claim()) {
            scheduler.resumeClaimed(this, true);
        }
    }

    /** The same callback, in the shape {@code CompletableFuture.whenComplete} takes. */
    @Override
    public void accept(Object value, Throwable failure) {
        run();
    }

    /**
     * Registers {@code sender} with the continuation flow running on this thread: it runs, once, before
     * that flow next waits for anything (suspends, or blocks in a pinned wait) and when it ends, whichever
     * comes first. A transport that holds back a flow's output until it flushes (write coalescing, flush
     * consolidation) registers here, so that the peer never waits for bytes the flow has written. A sender
     * must not wait and must not throw.
     *
     * @return the flow, or {@code null} if none runs on this thread or it is a task that was not
     *     instrumented (which may block where Flow does not see it): then nothing may be deferred
     */
    public static FlowState deferUntilWait(Runnable sender) {
        FlowState f = current();
        if (f == null || f.continuation == null) {
            return null;
        }
        Extras x = f.extras();
        Runnable[] s = x.senders;
        if (s == null) {
            s = x.senders = new Runnable[2];
        } else if (x.senderCount == s.length) {
            s = x.senders = Arrays.copyOf(s, s.length * 2);
        }
        s[x.senderCount++] = sender;
        return f;
    }

    /** Whether this is a task that was not instrumented, which cannot suspend (while it runs). */
    boolean isUninstrumented() {
        return continuation == null;
    }

    /**
     * Runs and forgets the registered senders ({@link #deferUntilWait}); nothing when none is registered
     * (one field read). Called before a wait that blocks the thread, and as the flow ends.
     */
    void sendDeferred() {
        Extras x = extras;
        if (x == null || x.senderCount == 0) {
            return;
        }
        Runnable[] s = x.senders;
        int n = x.senderCount;
        x.senderCount = 0;
        for (int i = 0; i < n; i++) {
            Runnable r = s[i];
            s[i] = null;
            r.run();
        }
    }

    /** Reads the value of flow-local {@code key} kept in slot {@code index}; for {@code FlowLocal}. */
    public Object local(int index, Object key) {
        Extras x = extras;
        Object[] l = x == null ? null : x.locals;
        int i = index << 1;
        return l != null && i < l.length && l[i] == key ? l[i + 1] : null;
    }

    /** Writes (or with {@code null}, removes) the value of flow-local {@code key} in slot {@code index}. */
    public void local(int index, Object key, Object value) {
        Extras x = extras();
        Object[] l = x.locals;
        int i = index << 1;
        if (l == null) {
            l = x.locals = new Object[Math.max(8, i + 2)];
        } else if (i >= l.length) {
            l = x.locals = Arrays.copyOf(l, Math.max(i + 2, l.length * 2));
        }
        l[i] = value == null ? null : key;
        l[i + 1] = value;
    }

    /** The extras, created on first use; worker-owned, like the fields it holds. */
    private Extras extras() {
        Extras x = extras;
        if (x == null) {
            x = extras = new Extras(null);
        }
        return x;
    }

    /** Where the flow last suspended, when the scheduler records stacks; {@code null} otherwise. */
    StackTraceElement[] site() {
        Extras x = extras;
        return x == null ? null : x.site;
    }

    /**
     * What a flow holds beyond the common case: its name, its recorded site, its flow-locals and the
     * timeout of its current wait.
     */
    private static final class Extras {
        final String name;
        /** Where the flow last suspended, when the scheduler records stacks; read racily by {@code dump()}. */
        volatile StackTraceElement[] site;
        Object[] locals;
        /** The timeout of the current wait; read racily by {@code dump()}. */
        long timeoutNanos;
        /** What runs before the flow's next wait ({@link #deferUntilWait}); the first {@link #senderCount}. */
        Runnable[] senders;
        int senderCount;

        Extras(String name) {
            this.name = name;
        }
    }

    /**
     * Takes the outcome of a continuation that has just ended: {@code call()} returns the task's value
     * or throws its failure.
     *
     * @throws IllegalStateException if {@link FlowRoot} handed over none
     */
    Callable<?> outcome() {
        Object o = blocker;
        if (!(o instanceof Outcome)) {
            throw new IllegalStateException("flow " + this + " ended without an outcome (blocker: " + o + ")");
        }
        blocker = null;
        return (Outcome) o;
    }

    /** The outcome of a continuation's task: {@link #call()} returns its value or throws its failure. */
    private static final class Outcome implements Callable<Object> {
        private final Object value;
        private final Throwable failure;

        Outcome(Object value, Throwable failure) {
            this.value = value;
            this.failure = failure;
        }

        @Override
        public Object call() throws Exception {
            Throwable t = failure;
            if (t == null) {
                return value;
            }
            if (t instanceof Exception) {
                throw (Exception) t;
            }
            if (t instanceof Error) {
                throw (Error) t;
            }
            throw new UndeclaredThrowableException(t);
        }
    }

    /** Stands in the blocker of a flow whose wake-up could not be registered: it throws {@link #cause} on resuming. */
    static final class Failed {
        final Throwable cause;

        Failed(Throwable cause) {
            this.cause = cause;
        }

        @Override
        public String toString() {
            return "(failed to register the wake-up: " + cause + ")";
        }
    }

    /** Drops the flow-locals and the recorded site of a flow that ended; keeps its name. */
    void clearLocals() {
        Extras x = extras;
        if (x != null) {
            x.site = null;
            x.locals = null;
            x.senders = null;
            x.senderCount = 0;
        }
    }

    @Override
    public String toString() {
        Extras x = extras;
        String name = x == null ? null : x.name;
        return name != null ? "flow " + name : "flow@" + Integer.toHexString(System.identityHashCode(this));
    }
}
