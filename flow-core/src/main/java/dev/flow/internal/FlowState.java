package dev.flow.internal;

import dev.flow.SuspendPolicy;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.function.BiConsumer;
import org.apache.commons.javaflow.api.Continuation;

/**
 * The state of one flow: its continuation, what it waits for, its pin state and flow-local values.
 *
 * <p>Touched by one worker at a time; the hand-over between workers goes through the scheduler's
 * ready queue, which publishes all writes.
 */
public final class FlowState implements Runnable, BiConsumer<Object, Throwable> {

    private static final ThreadLocal<FlowState> CURRENT = new ThreadLocal<>();
    private static final AtomicIntegerFieldUpdater<FlowState> WAKE =
            AtomicIntegerFieldUpdater.newUpdater(FlowState.class, "wake");

    final SchedulerCore scheduler;
    final CompletableFuture<Object> result = new CompletableFuture<>();
    final SuspendPolicy policy;

    Continuation continuation;
    java.util.concurrent.Callable<?> plainTask;

    /** Current pin site, or {@link Pins#NOT_PINNED}. */
    int pinSite = Pins.NOT_PINNED;

    Object blocker;
    long timeoutNanos;
    boolean timedOut;
    /** Set once a timed await expired: its completion callback may still fire later. */
    boolean staleCallbacks;
    /** 1 while a suspension waits for its single wake-up; the callback that moves it to 0 wins. */
    private volatile int wake;
    boolean outcomeSet;
    private Object outcome;
    private Throwable failure;
    private Object[] locals;

    FlowState(SchedulerCore scheduler, SuspendPolicy policy) {
        this.scheduler = scheduler;
        this.policy = policy;
    }

    /** The flow running on this thread, or {@code null}. */
    public static FlowState current() {
        return CURRENT.get();
    }

    static void setCurrent(FlowState f) {
        CURRENT.set(f);
    }

    /** The scheduler running this flow. */
    public SchedulerCore scheduler() {
        return scheduler;
    }

    /**
     * Prepares to suspend on {@code w}: applies the pin state and the suspend policy.
     *
     * @return {@code true} if the caller must now suspend; {@code false} if it must block instead
     *     (or {@code w} completed during the policy's wait)
     */
    public boolean beforeSuspend(Object w, long timeoutNanos) {
        if (pinSite != Pins.NOT_PINNED) {
            Pins.onPinnedAwait(pinSite);
            return false;
        }
        if (continuation == null) {
            return false;
        }
        SuspendPolicy p = policy;
        if ((p.kind() == SuspendPolicy.Kind.AFTER || p.kind() == SuspendPolicy.Kind.ADAPTIVE)
                && scheduler.hasQueuedFlows()) {
            // Waiting or spinning first only pays while the worker has nothing else to do; with
            // other flows ready it would starve them (one connection served, the others waiting).
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
        this.timeoutNanos = timeoutNanos;
        this.timedOut = false;
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

    /** Arms this flow as the wake-up callback of its current suspension. */
    void armWake() {
        wake = 1;
    }

    /** Wake-up callback for awaits without a timeout (the common case): no allocation per suspension. */
    @Override
    public void run() {
        if (WAKE.compareAndSet(this, 1, 0)) {
            scheduler.wake(this);
        }
    }

    /** The same callback, in the shape {@code CompletableFuture.whenComplete} takes. */
    @Override
    public void accept(Object value, Throwable failure) {
        run();
    }

    /** Called after resuming; returns {@code false} if the wait timed out. */
    public boolean afterResume() {
        blocker = null;
        return !timedOut;
    }

    /** Completes the flow with a value. */
    public void succeed(Object value) {
        scheduler.onFinished(this, value, null);
    }

    /** Completes the flow with a failure. */
    public void fail(Throwable t) {
        scheduler.onFinished(this, null, t);
    }

    void setOutcome(Object value, Throwable t) {
        outcomeSet = true;
        outcome = value;
        failure = t;
    }

    void publishOutcome() {
        Throwable t = failure;
        Object v = outcome;
        outcome = null;
        failure = null;
        if (t == null) {
            result.complete(v);
        } else {
            result.completeExceptionally(t);
        }
    }

    /** Reads flow-local slot {@code index}; for {@code FlowLocal}. */
    public Object local(int index) {
        Object[] l = locals;
        return l != null && index < l.length ? l[index] : null;
    }

    /** Writes flow-local slot {@code index}; for {@code FlowLocal}. */
    public void local(int index, Object value) {
        Object[] l = locals;
        if (l == null) {
            l = locals = new Object[Math.max(4, index + 1)];
        } else if (index >= l.length) {
            l = locals = Arrays.copyOf(l, Math.max(index + 1, l.length * 2));
        }
        l[index] = value;
    }
}
