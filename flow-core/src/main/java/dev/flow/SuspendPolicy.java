package dev.flow;

import java.time.Duration;
import java.util.Objects;

/**
 * Decides what a flow does when it awaits something that is not complete yet.
 *
 * <ul>
 *   <li>{@link #never()}: block the worker thread, as sync code would;
 *   <li>{@link #immediately()}: suspend at once (the default);
 *   <li>{@link #after(Duration)}: wait on the operation for up to the given time first and
 *       suspend only if it is still not complete;
 *   <li>{@link #adaptive()}: spin briefly, then yield a few times, then suspend; cheap when
 *       operations complete within microseconds (in-VM peers, loaded workers).
 * </ul>
 *
 * <p>An await on something already complete never suspends, whatever the policy. The waiting and
 * spinning of {@link #after(Duration)} and {@link #adaptive()} happen only while no other flow is
 * ready to run; otherwise the flow suspends at once, so that one busy flow cannot starve the others.
 * Instances are immutable and thread-safe.
 */
public final class SuspendPolicy {

    /** The kind of a policy. */
    public enum Kind {
        /** Block the thread. */
        NEVER,
        /** Suspend at once. */
        IMMEDIATELY,
        /** Wait up to {@link SuspendPolicy#waitTime()} first. */
        AFTER,
        /** Spin and yield first. */
        ADAPTIVE
    }

    private static final SuspendPolicy NEVER = new SuspendPolicy(Kind.NEVER, Duration.ZERO, 0, 0);
    private static final SuspendPolicy IMMEDIATELY = new SuspendPolicy(Kind.IMMEDIATELY, Duration.ZERO, 0, 0);
    private static final SuspendPolicy ADAPTIVE = new SuspendPolicy(Kind.ADAPTIVE, Duration.ZERO, 64, 2);

    private final Kind kind;
    private final Duration waitTime;
    private final long waitNanos;
    private final int spins;
    private final int yields;

    private SuspendPolicy(Kind kind, Duration waitTime, int spins, int yields) {
        this.kind = kind;
        this.waitTime = waitTime;
        this.waitNanos = waitTime.toNanos();
        this.spins = spins;
        this.yields = yields;
    }

    /** Never suspend: a flow that awaits blocks its worker thread. */
    public static SuspendPolicy never() {
        return NEVER;
    }

    /** Suspend as soon as an awaited operation is found incomplete. */
    public static SuspendPolicy immediately() {
        return IMMEDIATELY;
    }

    /**
     * Wait on the operation for up to {@code waitTime}, then suspend if it is still incomplete.
     *
     * @param waitTime how long to wait first; must be &gt; 0
     */
    public static SuspendPolicy after(Duration waitTime) {
        Objects.requireNonNull(waitTime, "waitTime");
        if (waitTime.isNegative() || waitTime.isZero()) {
            throw new IllegalArgumentException("waitTime: " + waitTime + " (expected: > 0)");
        }
        return new SuspendPolicy(Kind.AFTER, waitTime, 0, 0);
    }

    /** Spin 64 times, yield twice, then suspend. */
    public static SuspendPolicy adaptive() {
        return ADAPTIVE;
    }

    /**
     * Spin up to {@code spins} times ({@link Thread#onSpinWait()}), then yield up to {@code yields}
     * times, re-checking the operation each time, then suspend.
     *
     * @param spins spin iterations, 0 to 1,000,000
     * @param yields yields, 0 to 1000
     */
    public static SuspendPolicy adaptive(int spins, int yields) {
        if (spins < 0 || spins > 1_000_000) {
            throw new IllegalArgumentException("spins: " + spins + " (expected: 0..1000000)");
        }
        if (yields < 0 || yields > 1000) {
            throw new IllegalArgumentException("yields: " + yields + " (expected: 0..1000)");
        }
        return new SuspendPolicy(Kind.ADAPTIVE, Duration.ZERO, spins, yields);
    }

    /** The kind of this policy. */
    public Kind kind() {
        return kind;
    }

    /** For {@link Kind#AFTER}: how long to wait before suspending; zero otherwise. */
    public Duration waitTime() {
        return waitTime;
    }

    /** {@link #waitTime()} in nanoseconds. */
    public long waitNanos() {
        return waitNanos;
    }

    /** For {@link Kind#ADAPTIVE}: spin iterations before yielding. */
    public int spins() {
        return spins;
    }

    /** For {@link Kind#ADAPTIVE}: yields before suspending. */
    public int yields() {
        return yields;
    }

    @Override
    public String toString() {
        switch (kind) {
            case AFTER:
                return "after(" + waitTime.toMillis() + "ms)";
            case ADAPTIVE:
                return "adaptive(" + spins + "," + yields + ")";
            default:
                return kind.name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
