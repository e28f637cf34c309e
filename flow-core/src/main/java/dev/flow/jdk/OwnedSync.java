package dev.flow.jdk;

import dev.flow.internal.FlowState;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The state of a flow-owned lock: one exclusive owner (re-entrant) or any number of shared owners
 * (each re-entrant), and a FIFO queue of waiters. An owner is the flow running the caller, or the
 * calling thread outside a flow, so a lock held by a flow stays held across its suspensions and its
 * workers, and a plain thread sharing the lock is excluded like any other owner.
 *
 * <p>A release hands the lock to the waiters at the head of the queue directly (the head writer, or
 * the run of readers at the head), so the lock is never free while someone waits and no waiter can
 * be overtaken once queued. A waiter waits on a {@code CompletableFuture}: the loader that defines
 * this class makes that wait a suspension point, so a flow suspends where a thread would park, and a
 * thread blocks. State changes happen under this object's monitor, never across a wait.
 *
 * <p>Only the waits may suspend: the loader instruments its own copy of this class, and a call it cannot
 * resolve (an interface call such as {@code Iterator.next()} or {@code Map.get}, when the scope implements that
 * interface with a method that awaits) would make the method around it suspendable. A suspendable method
 * holding this monitor is rewritten to re-enter it on restore, which the JIT refuses to compile ("unbalanced
 * monitors"), and every release would run interpreted. So the releases and the state they touch use concrete
 * classes ({@code HashMap}, {@code ArrayDeque}, {@code ArrayList}) and indexed loops, never interface calls.
 * Thread-safe.
 */
final class OwnedSync {

    private static final int MAX = 65535;

    private final boolean fair;
    /** Guarded by {@code this}. */
    private Object writer;
    private int writeHolds;
    private final HashMap<Object, Integer> readers = new HashMap<>();
    /** The sum of {@code readers}' counts. Guarded by {@code this}. */
    private int readHolds;
    private final ArrayDeque<Waiter> queue = new ArrayDeque<>();

    /** A queued acquisition, granted when the lock is handed to it. */
    static final class Waiter {
        final Object owner;
        final boolean shared;
        final int holds;
        final CompletableFuture<Void> granted = new CompletableFuture<>();

        Waiter(Object owner, boolean shared, int holds) {
            this.owner = owner;
            this.shared = shared;
            this.holds = holds;
        }
    }

    OwnedSync(boolean fair) {
        this.fair = fair;
    }

    /** The owner calls from here belong to: the running flow, else the current thread. */
    static Object me() {
        FlowState f = FlowState.current();
        return f != null ? f : Thread.currentThread();
    }

    boolean isFair() {
        return fair;
    }

    // ---------------------------------------------------------------- acquisitions

    /** Acquires, waiting without regard to interrupts (the interrupt status is kept). */
    void acquire(boolean shared) {
        Waiter w = tryOrQueue(me(), shared, 1, false);
        if (w != null) {
            w.granted.join();
        }
    }

    /** Acquires, or throws {@link InterruptedException} if interrupted before or while waiting. */
    void acquireInterruptibly(boolean shared) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        Waiter w = tryOrQueue(me(), shared, 1, false);
        if (w == null) {
            return;
        }
        try {
            w.granted.get();
        } catch (InterruptedException e) {
            if (!cancel(w)) {
                release(w.owner, shared);
            }
            throw e;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Acquires if that needs no wait, even past queued waiters (like {@code ReentrantLock.tryLock()}). */
    boolean tryAcquire(boolean shared) {
        return tryOrQueue(me(), shared, 1, true) == null;
    }

    /** Acquires within {@code nanos}; {@link InterruptedException} if interrupted before or while waiting. */
    boolean tryAcquire(boolean shared, long nanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        Object me = me();
        synchronized (this) {
            if (canTake(me, shared, false)) {
                take(me, shared, 1);
                return true;
            }
            if (nanos <= 0) {
                return false;
            }
        }
        Waiter w = tryOrQueue(me, shared, 1, false);
        if (w == null) {
            return true;
        }
        try {
            w.granted.get(nanos, TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            return !cancel(w);
        } catch (InterruptedException e) {
            if (!cancel(w)) {
                release(w.owner, shared);
            }
            throw e;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Takes the exclusive hold for the duration of one call (a decorator's lock); returns the owner
     * to pass to {@link #exit}.
     */
    Object enter() {
        Object me = me();
        Waiter w = tryOrQueue(me, false, 1, false);
        if (w != null) {
            w.granted.join();
        }
        return me;
    }

    /** Releases the hold taken by {@link #enter}. */
    void exit(Object owner) {
        release(owner, false);
    }

    /** Re-acquires {@code holds} holds for {@code owner} after a condition wait, without regard to interrupts. */
    void reacquire(Object owner, int holds) {
        Waiter w = tryOrQueue(owner, false, holds, false);
        if (w != null) {
            w.granted.join();
        }
    }

    /** Takes the lock at once if allowed, else queues a waiter and returns it ({@code null}: taken). */
    private synchronized Waiter tryOrQueue(Object me, boolean shared, int holds, boolean barge) {
        if (canTake(me, shared, barge)) {
            take(me, shared, holds);
            return null;
        }
        if (barge) {
            return new Waiter(me, shared, holds);
        }
        Waiter w = new Waiter(me, shared, holds);
        queue.add(w);
        return w;
    }

    /** Whether {@code me} may take a hold now. Guarded by {@code this}. */
    private boolean canTake(Object me, boolean shared, boolean barge) {
        if (writer == me) {
            return true;
        }
        if (writer != null) {
            return false;
        }
        if (!shared) {
            return readers.isEmpty() && (barge || queue.isEmpty());
        }
        if (barge || readers.containsKey(me)) {
            return true;
        }
        Waiter head = queue.peek();
        return fair ? head == null : head == null || head.shared;
    }

    /** Guarded by {@code this}. */
    private void take(Object me, boolean shared, int holds) {
        if (shared) {
            int n = readers.getOrDefault(me, 0);
            if (readHolds + holds > MAX) {
                throw new Error("Maximum lock count exceeded");
            }
            readers.put(me, n + holds);
            readHolds += holds;
        } else {
            if (writeHolds + holds > MAX || writeHolds + holds < 0) {
                throw new Error("Maximum lock count exceeded");
            }
            writer = me;
            writeHolds += holds;
        }
    }

    /**
     * Removes {@code w} from the queue if it is still there; returns {@code false} if the lock was
     * already handed to it (the caller then holds it).
     */
    private boolean cancel(Waiter w) {
        ArrayList<Waiter> grantedNow;
        synchronized (this) {
            if (!queue.remove(w)) {
                return false;
            }
            grantedNow = grant();
        }
        complete(grantedNow);
        return true;
    }

    // ---------------------------------------------------------------- releases

    /** Releases one hold of {@code owner}; {@code false} if it holds none of that kind. */
    boolean release(Object owner, boolean shared) {
        ArrayList<Waiter> grantedNow;
        synchronized (this) {
            if (shared) {
                Integer n = readers.get(owner);
                if (n == null) {
                    return false;
                }
                if (n == 1) {
                    readers.remove(owner);
                } else {
                    readers.put(owner, n - 1);
                }
                readHolds--;
            } else {
                if (writer != owner) {
                    return false;
                }
                if (--writeHolds == 0) {
                    writer = null;
                }
            }
            grantedNow = grant();
        }
        complete(grantedNow);
        return true;
    }

    /** Releases every exclusive hold of {@code owner} (a condition wait); returns how many it had. */
    int releaseAll(Object owner) {
        ArrayList<Waiter> grantedNow;
        int holds;
        synchronized (this) {
            holds = writeHolds;
            writer = null;
            writeHolds = 0;
            grantedNow = grant();
        }
        complete(grantedNow);
        return holds;
    }

    /** Hands the free lock to the head of the queue. Guarded by {@code this}. */
    private ArrayList<Waiter> grant() {
        ArrayList<Waiter> out = null;
        for (Waiter head = queue.peek(); head != null; head = queue.peek()) {
            if (writer != null && writer != head.owner || !head.shared && !readers.isEmpty()) {
                break;
            }
            queue.poll();
            take(head.owner, head.shared, head.holds);
            if (out == null) {
                out = new ArrayList<>(2);
            }
            out.add(head);
            if (!head.shared) {
                break;
            }
        }
        return out;
    }

    private static void complete(ArrayList<Waiter> granted) {
        if (granted != null) {
            for (int i = 0; i < granted.size(); i++) {
                granted.get(i).granted.complete(null);
            }
        }
    }

    // ---------------------------------------------------------------- queries

    synchronized boolean isWriteHeldBy(Object owner) {
        return writer == owner;
    }

    synchronized int writeHoldsOf(Object owner) {
        return writer == owner ? writeHolds : 0;
    }

    synchronized int readHoldsOf(Object owner) {
        return readers.getOrDefault(owner, 0);
    }

    synchronized boolean isWriteLocked() {
        return writer != null;
    }

    synchronized int readLockCount() {
        return readHolds;
    }

    synchronized Object writer() {
        return writer;
    }

    synchronized int queueLength() {
        return queue.size();
    }

    synchronized boolean isQueued(Object owner) {
        for (Iterator<Waiter> it = queue.iterator(); it.hasNext(); ) {
            if (it.next().owner == owner) {
                return true;
            }
        }
        return false;
    }

    /** The owner as a thread, for {@code getOwner()}: {@code null} when free or held by a flow. */
    static Thread asThread(Object owner) {
        return owner instanceof Thread ? (Thread) owner : null;
    }

    /** How {@code toString()} names an owner, as the JDK names a thread. */
    static String describe(Object owner) {
        return owner instanceof Thread ? ((Thread) owner).getName() : "flow " + owner;
    }
}
