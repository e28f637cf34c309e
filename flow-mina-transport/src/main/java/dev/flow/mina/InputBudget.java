package dev.flow.mina;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A cap on the unread input buffered by all the sessions that share it (e.g. all sessions of one
 * server), on top of each session's own high-water mark.
 *
 * <p>Each {@link MinaTransport} created with the budget charges the bytes it buffers and releases
 * them as they are read (or discarded on close). While the total is at or above {@link
 * #maxBytes()}, reading is suspended on every session that shares the budget (TCP and in-VM pipes;
 * the peers then feel back-pressure); it resumes once the total drops below three quarters of the
 * cap. The cap can be overshot by what MINA has already read when the limit is reached: at most one
 * read buffer per session. Idle peers holding partial lines keep their share until their line, read
 * or idle timeout ends them, so pair a budget with those timeouts.
 *
 * <p>Thread-safe; charging and releasing are single atomic operations.
 */
public final class InputBudget {

    private final long maxBytes;
    private final long resumeBelow;
    private final AtomicLong used = new AtomicLong();
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

    /** The unread input bytes buffered now by the sessions sharing the budget. */
    public long usedBytes() {
        return used.get();
    }

    /** Whether reading must stop: the total is at or above the cap. */
    boolean exhausted() {
        return used.get() >= maxBytes;
    }

    /** Whether reading stays suspended once suspended: the total is at or above the resume level. */
    boolean aboveResumeLevel() {
        return used.get() >= resumeBelow;
    }

    /** Adds {@code delta} bytes (negative: released); a release below the resume level wakes the suspended. */
    void add(long delta) {
        long now = used.addAndGet(delta);
        if (delta < 0 && now < resumeBelow) {
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
        return "InputBudget[" + used.get() + " of " + maxBytes + " bytes]";
    }
}
