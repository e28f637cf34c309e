package dev.flow.internal;

import dev.flow.FlowLocal;
import java.util.Arrays;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The owner-based locks ({@code java.util.concurrent.locks.Lock}) each flow holds. The class loader
 * follows every {@code lock}, {@code lockInterruptibly}, successful {@code tryLock} and {@code unlock}
 * in instrumented code with a call here; while a flow holds one, an await pins it to the owning
 * thread (it blocks, warning once per lock site, or is refused in strict mode), exactly as inside
 * {@code synchronized}. So mutual exclusion holds and every {@code unlock} runs on the locking thread.
 *
 * <p>Outside a flow nothing is recorded, nor for a {@link FlowOwnedLock}, which the flow owns. A flow's record is touched only by the thread running the
 * flow; it moves with the flow like any flow-local value.
 */
public final class Locks {

    private static final FlowLocal<Held> HELD = FlowLocal.create();
    /**
     * Holds recorded in all flows, so that an await can skip the per-flow look-up when no flow holds
     * a lock. It only counts up for holds that end with the flow, which merely costs that look-up.
     */
    private static final AtomicInteger HOLDS = new AtomicInteger();

    private Locks() {
    }

    /** The locks one flow holds, innermost last, with the site that took each. */
    private static final class Held {
        Object[] locks = new Object[4];
        int[] sites = new int[4];
        int size;

        void add(Object lock, int site) {
            if (size == locks.length) {
                locks = Arrays.copyOf(locks, size * 2);
                sites = Arrays.copyOf(sites, size * 2);
            }
            locks[size] = lock;
            sites[size] = site;
            size++;
        }

        boolean remove(Object lock) {
            for (int i = size - 1; i >= 0; i--) {
                if (locks[i] == lock) {
                    System.arraycopy(locks, i + 1, locks, i, size - i - 1);
                    System.arraycopy(sites, i + 1, sites, i, size - i - 1);
                    size--;
                    locks[size] = null;
                    return true;
                }
            }
            return false;
        }
    }

    /** Records that the current flow acquired {@code lock} at pin site {@code site}. */
    public static void locked(Object lock, int site) {
        if (lock instanceof FlowOwnedLock || FlowState.current() == null) {
            return;
        }
        Held h = HELD.get();
        if (h == null) {
            h = new Held();
            HELD.set(h);
        }
        h.add(lock, site);
        HOLDS.incrementAndGet();
    }

    /**
     * Called before a flow's {@code lock()}, {@code lockInterruptibly()} or timed {@code tryLock} of
     * {@code lock}: a lock made outside the loaded scope (not a {@link FlowOwnedLock}) that would make
     * the call wait is reported at {@code site} (a {@code Pins.Reason.CONTENDED_LOCK} site: a warning
     * once per site, refused in strict mode), and the call then blocks. A {@code ReentrantLock} is asked
     * whether another thread holds it; any other lock is tried and at once released. Outside a flow
     * nothing is done.
     */
    public static void acquiring(Object lock, int site) {
        if (lock instanceof FlowOwnedLock || !(lock instanceof Lock) || FlowState.current() == null) {
            return;
        }
        if (wouldWait((Lock) lock)) {
            Pins.onPinnedAwait(site);
        }
    }

    private static boolean wouldWait(Lock lock) {
        if (lock instanceof ReentrantLock) {
            ReentrantLock r = (ReentrantLock) lock;
            return r.isLocked() && !r.isHeldByCurrentThread();
        }
        if (lock.tryLock()) {
            lock.unlock();
            return false;
        }
        return true;
    }

    /** Records a {@code tryLock} at {@code site}: only a successful one holds the lock. Returns {@code acquired}. */
    public static boolean tried(Object lock, boolean acquired, int site) {
        if (acquired) {
            locked(lock, site);
        }
        return acquired;
    }

    /** Records that the current flow released one hold of {@code lock}. */
    public static void unlocked(Object lock) {
        if (lock instanceof FlowOwnedLock || FlowState.current() == null) {
            return;
        }
        Held h = HELD.get();
        if (h != null && h.remove(lock)) {
            HOLDS.decrementAndGet();
        }
    }

    /** The site of the innermost lock {@code f} holds, or {@link Pins#NOT_PINNED}. Runs on {@code f}'s thread. */
    static int heldSite(FlowState f) {
        Held h = HELD.get();
        return h == null || h.size == 0 ? Pins.NOT_PINNED : h.sites[h.size - 1];
    }

    /**
     * Called (through {@link Pins#checkAwait()}, before every suspension point of a strict loader): a
     * flow holding a lock taken at a strict site is refused there with {@code
     * UnsuspendableFrameException}, whether or not the await would block, so a strict run does not
     * depend on timing. Costs one volatile read while no flow holds a lock.
     */
    static void checkAwait() {
        if (HOLDS.get() == 0) {
            return;
        }
        FlowState f = FlowState.current();
        if (f != null) {
            int site = heldSite(f);
            if (site != Pins.NOT_PINNED && Pins.isStrict(site)) {
                Pins.onPinnedAwait(site);
            }
        }
    }

    /**
     * Whether a held lock pins {@code f} at an await that would block: reports the innermost lock's
     * site (a warning once per site) and returns {@code true}. A flow pinned for another reason is
     * left to {@link FlowState#beforeSuspend}, which reports its own site.
     */
    public static boolean pins(FlowState f) {
        if (HOLDS.get() == 0 || f.pinSite != Pins.NOT_PINNED) {
            return false;
        }
        int site = heldSite(f);
        if (site == Pins.NOT_PINNED) {
            return false;
        }
        Pins.onPinnedAwait(site);
        return true;
    }
}
