package dev.flow.mina;

import dev.flow.MemoryBudgetExceededException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A cap on the input memory of all the sessions that share it (e.g. all sessions of one server), on
 * top of each session's own high-water mark: the unread input they buffer and the arrays of the
 * declared-length reads ({@code readFully(n)} with a length the peer announced) they are filling.
 *
 * <p><b>Buffered input.</b> Each {@link MinaTransport} created with the budget charges the bytes it
 * buffers and releases them as they are read (or discarded on close). A release of less than 1 KiB
 * may wait while the session's buffer still holds input: it is made when the buffer empties, a read
 * finds nothing to take, more input arrives or the transport closes. While the total is at or above
 * {@link #maxBytes()}, reading is suspended on every session that shares the budget (TCP and in-VM
 * pipes; the peers then feel back-pressure); it resumes once the total drops below three quarters of
 * the cap. The cap can be overshot by what MINA has already read when the limit is reached: at most one
 * read buffer per session. Idle peers holding partial lines keep their share until their line, read or
 * idle timeout ends them, so pair a budget with those timeouts.
 *
 * <p><b>Declared lengths.</b> {@code readFully(n)} of more than 8 KiB allocates its array only as the
 * bytes arrive, doubling it, and reserves each growth here first. A growth is granted while the total
 * (buffered input and reservations) stays within three quarters of the cap, so reservations alone never
 * suspend reading; otherwise that read fails at once with an {@link java.io.IOException} naming the
 * read, the total and the limit, and only its session ends. A read releases its reservation when it
 * returns or fails, or, under a {@linkplain dev.flow.Transport#holdReads() hold}, when the hold closes:
 * then even arrays allocated at once are reserved, so the bytes handlers keep of their requests count
 * here too.
 *
 * <p>Thread-safe; charging and releasing are single atomic operations.
 */
public final class InputBudget {

    private final long maxBytes;
    private final long resumeBelow;
    private final AtomicLong used = new AtomicLong();
    private final AtomicLong reserved = new AtomicLong();
    private final ConcurrentLinkedQueue<MinaTransport> suspended = new ConcurrentLinkedQueue<>();

    /**
     * Creates a budget of {@code maxBytes} buffered input bytes.
     *
     * @throws IllegalArgumentException if {@code maxBytes <= 0}
     */
    public InputBudget(long maxBytes) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes: " + maxBytes + " (expected: > 0)");
        }
        this.maxBytes = maxBytes;
        this.resumeBelow = maxBytes - maxBytes / 4;
    }

    /** The cap in bytes. */
    public long maxBytes() {
        return maxBytes;
    }

    /**
     * The default cap of a {@link FlowServer}'s budget: a quarter of the maximum heap ({@code
     * Runtime.getRuntime().maxMemory() / 4}), at least 1 MiB.
     */
    public static long defaultMaxBytes() {
        return Math.max(1L << 20, Runtime.getRuntime().maxMemory() / 4);
    }

    /** The bytes charged now: unread input buffered by the sessions sharing the budget, and {@link #reservedBytes()}. */
    public long usedBytes() {
        return used.get();
    }

    /** The bytes reserved now by declared-length reads in progress and by holds (part of {@link #usedBytes()}). */
    public long reservedBytes() {
        return reserved.get();
    }

    /**
     * Reserves {@code bytes} for the array of a declared-length read of {@code declared} bytes by {@code
     * t}, if the total stays within three quarters of the cap.
     *
     * @throws MemoryBudgetExceededException naming the read, the total and the limit, if it would not
     */
    void reserve(MinaTransport t, long bytes, long declared) throws MemoryBudgetExceededException {
        for (;;) {
            long u = used.get();
            if (u + bytes > resumeBelow) {
                throw new MemoryBudgetExceededException("input budget exhausted: readFully(" + declared + ") from "
                        + t.remoteAddress() + " needs " + bytes + " more bytes with " + u + " of " + maxBytes
                        + " bytes in use, " + reserved.get() + " of them by reads and holds (expected: at most "
                        + resumeBelow + " for declared lengths and holds, three quarters of the InputBudget)", u, resumeBelow);
            }
            if (used.compareAndSet(u, u + bytes)) {
                reserved.addAndGet(bytes);
                return;
            }
        }
    }

    /** Releases {@code bytes} reserved with {@link #reserve}. */
    void release(long bytes) {
        reserved.addAndGet(-bytes);
        add(-bytes);
    }

    /** Whether reading must stop: the total is at or above the cap. */
    boolean exhausted() {
        return used.get() >= maxBytes;
    }

    /** Whether reading stays suspended once suspended: the total is at or above the resume level. */
    boolean aboveResumeLevel() {
        return used.get() >= resumeBelow;
    }

    /**
     * Adds {@code delta} bytes (negative: released); a release below the resume level wakes the suspended.
     * A transport registering meanwhile reads the total after it registered ({@link #suspendedFor}), so
     * one of the two wakes it.
     */
    void add(long delta) {
        long now = used.addAndGet(delta);
        if (delta < 0 && now < resumeBelow && !suspended.isEmpty()) {
            wakeAll();
        }
    }

    /** Registers {@code t} as suspended for the budget; woken at once if the budget freed up meanwhile. */
    void suspendedFor(MinaTransport t) {
        suspended.add(t);
        if (!aboveResumeLevel()) {
            wakeAll();
        }
    }

    /**
     * Wakes the transports registered when called. One that finds the budget still above its resume
     * level registers again; it waits for the next release instead of being woken again by this loop,
     * which would never end.
     */
    private void wakeAll() {
        for (int n = suspended.size(); n > 0; n--) {
            MinaTransport t = suspended.poll();
            if (t == null) {
                return;
            }
            t.budgetFreed();
        }
    }

    @Override
    public String toString() {
        return "InputBudget[" + used.get() + " of " + maxBytes + " bytes, " + reserved.get() + " reserved]";
    }
}
