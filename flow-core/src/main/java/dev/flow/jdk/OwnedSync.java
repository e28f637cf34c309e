package dev.flow.jdk;

import dev.flow.internal.FlowState;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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
 * thread blocks. State changes happen under this object's monitor (but for the uncontended ones of the fast
 * path below), never across a wait.
 *
 * <p>Only the waits may suspend: the loader instruments its own copy of this class, and a call it cannot
 * resolve (an interface call such as {@code Iterator.next()} or {@code Map.get}, when the scope implements that
 * interface with a method that awaits) would make the method around it suspendable. A suspendable method
 * holding this monitor is rewritten to re-enter it on restore, which the JIT refuses to compile ("unbalanced
 * monitors"), and every release would run interpreted. So the releases and the state they touch use concrete
 * classes ({@code HashMap}, {@code ArrayDeque}, {@code ArrayList}) and indexed loops, never interface calls.
 *
 * <p><b>The uncontended fast path.</b> An exclusive hold taken and released while nobody else holds or waits
 * (Commons Net's writers take two decorator monitors per character) does not take this object's monitor: the
 * volatile {@link #state} is {@code null} (free, nobody queued, no reader), an owner (held exclusively by it,
 * nobody queued, no reader) or {@code INFLATED} (the fields guarded by the monitor, {@code writer}, {@code
 * readers}, {@code queue}, say who holds and waits). Outside the monitor {@code state} only moves between
 * {@code null} and an owner, by CAS (take: {@code null} to me; last release: me to {@code null}); everything else
 * first inflates it under the monitor (a CAS from what it was to {@code INFLATED}, recording the owner it replaced
 * as {@code writer}) and deflates it on the way out of the monitor when nobody waits and no reader holds
 * ({@code state = writer}). Why that keeps the properties above:
 * <ul>
 *   <li>Nobody is overtaken and no hand-off is lost: a waiter queues only under the monitor with {@code state}
 *       {@code INFLATED}, and the queue is never empty while deflated, so the fast take (a CAS from {@code null})
 *       cannot pass a queued waiter; the owner's fast release is a CAS from itself, which fails once a waiter has
 *       inflated the lock, and the owner then releases under the monitor, handing the lock to the head as before.
 *   <li>Under the monitor {@code INFLATED} is stable (only a monitor holder leaves it), so the guarded fields are
 *       read and written as before, under the monitor only.
 *   <li>Publication: {@code state} is volatile and every change to it is a CAS or a volatile write, so an owner's
 *       take (a CAS reading the {@code null} of the last release, or a monitor hand-off completed through the
 *       waiter's future) happens after everything the previous owner did while holding. {@code writeHolds}
 *       belongs to the exclusive owner: only the owner reads or writes it while it holds (re-entrant takes and
 *       releases count there, without CAS), and whoever hands the lock over (a fast take, or a grant under the
 *       monitor before completing the waiter's future) sets it before the new owner reads it; inflating never
 *       touches it. A last fast release leaves it as it was and each take overwrites it.
 *   <li>Queries read {@code state}; when it is {@code INFLATED} they read it again and the guarded fields under
 *       the monitor. {@code writeHoldsOf} is exact for the owner itself, a snapshot for anyone else (as the JDK's
 *       {@code toString()}).
 * </ul>
 * Readers, waiters, timed and interruptible waits and conditions take the monitor as before. The fast path uses
 * a {@code VarHandle} (not an interface call, not a call into the scope) in methods that never wait.
 * Thread-safe.
 */
final class OwnedSync {

    private static final int MAX = 65535;
    /** {@link #state} while the fields guarded by the monitor describe the lock. */
    private static final Object INFLATED = new Object();
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(OwnedSync.class, "state", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final boolean fair;
    /**
     * {@code null}: free, nobody queued, no reader; an owner: held exclusively by it, nobody queued, no reader;
     * {@code INFLATED}: see the guarded fields. Between {@code null} and an owner by CAS; to and from {@code
     * INFLATED} only under the monitor.
     */
    private volatile Object state;
    /** The exclusive owner while {@link #state} is {@code INFLATED}. Guarded by {@code this}. */
    private Object writer;
    /** The exclusive owner's holds: see the class comment. */
    private int writeHolds;
    /**
     * The readers' holds, {@code null} until the first reader: most locks (every {@code ReentrantLock}) never
     * have one, and a library may make one per statement. Guarded by {@code this}.
     */
    private HashMap<Object, Integer> readers;
    /** The sum of {@code readers}' counts. Guarded by {@code this}. */
    private int readHolds;
    /** The waiters, first in line first; {@code null} until the first waiter. Guarded by {@code this}. */
    private ArrayDeque<Waiter> queue;

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
        Object me = me();
        if (!shared && takeFast(me, 1)) {
            return;
        }
        Waiter w = tryOrQueue(me, shared, 1, false);
        if (w != null) {
            w.granted.join();
        }
    }

    /** Acquires, or throws {@link InterruptedException} if interrupted before or while waiting. */
    void acquireInterruptibly(boolean shared) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        Object me = me();
        if (!shared && takeFast(me, 1)) {
            return;
        }
        Waiter w = tryOrQueue(me, shared, 1, false);
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
        Object me = me();
        return !shared && takeFast(me, 1) || tryOrQueue(me, shared, 1, true) == null;
    }

    /** Acquires within {@code nanos}; {@link InterruptedException} if interrupted before or while waiting. */
    boolean tryAcquire(boolean shared, long nanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        Object me = me();
        if (!shared && takeFast(me, 1)) {
            return true;
        }
        synchronized (this) {
            inflate();
            boolean taken = canTake(me, shared, false);
            if (taken) {
                take(me, shared, 1);
            }
            deflateIfUncontended();
            if (taken || nanos <= 0) {
                return taken;
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
        if (takeFast(me, 1)) {
            return me;
        }
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
        if (takeFast(owner, holds)) {
            return;
        }
        Waiter w = tryOrQueue(owner, false, holds, false);
        if (w != null) {
            w.granted.join();
        }
    }

    /** Takes the lock at once if allowed, else queues a waiter and returns it ({@code null}: taken). */
    private synchronized Waiter tryOrQueue(Object me, boolean shared, int holds, boolean barge) {
        inflate();
        Waiter w = null;
        if (canTake(me, shared, barge)) {
            take(me, shared, holds);
        } else {
            w = new Waiter(me, shared, holds);
            if (!barge) {
                if (queue == null) {
                    queue = new ArrayDeque<>(4);
                }
                queue.add(w);
            }
        }
        deflateIfUncontended();
        return w;
    }

    /**
     * Takes {@code holds} exclusive holds without the monitor if the lock is free and uncontended, or already
     * {@code me}'s uncontended; {@code false}: nothing taken, take the monitor.
     */
    private boolean takeFast(Object me, int holds) {
        Object s = state;
        if (s == null) {
            if (STATE.compareAndSet(this, null, me)) {
                writeHolds = holds;
                return true;
            }
            return false;
        }
        if (s == me) {
            writeHolds = addHolds(writeHolds, holds);
            return true;
        }
        return false;
    }

    private static int addHolds(int held, int holds) {
        int n = held + holds;
        if (n > MAX || n < 0) {
            throw new Error("Maximum lock count exceeded");
        }
        return n;
    }

    /** Makes the guarded fields describe the lock ({@code state} {@code INFLATED}). Guarded by {@code this}. */
    private void inflate() {
        for (;;) {
            Object s = state;
            if (s == INFLATED) {
                return;
            }
            if (STATE.compareAndSet(this, s, INFLATED)) {
                writer = s;
                return;
            }
        }
    }

    /** Back to the fast path if nobody waits and no reader holds. Guarded by {@code this}, inflated. */
    private void deflateIfUncontended() {
        if (noWaiters() && noReaders()) {
            state = writer;
        }
    }

    /** Whether nobody waits. Guarded by {@code this}. */
    private boolean noWaiters() {
        return queue == null || queue.isEmpty();
    }

    /** Whether no reader holds. Guarded by {@code this}. */
    private boolean noReaders() {
        return readers == null || readers.isEmpty();
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
            return noReaders() && (barge || noWaiters());
        }
        if (barge || readers != null && readers.containsKey(me)) {
            return true;
        }
        Waiter head = queue == null ? null : queue.peek();
        return fair ? head == null : head == null || head.shared;
    }

    /** Guarded by {@code this}. */
    private void take(Object me, boolean shared, int holds) {
        if (shared) {
            if (readers == null) {
                readers = new HashMap<>(4);
            }
            int n = readers.getOrDefault(me, 0);
            if (readHolds + holds > MAX) {
                throw new Error("Maximum lock count exceeded");
            }
            readers.put(me, n + holds);
            readHolds += holds;
        } else if (writer == me) {
            writeHolds = addHolds(writeHolds, holds);
        } else {
            writer = me;
            writeHolds = holds;
        }
    }

    /**
     * Removes {@code w} from the queue if it is still there; returns {@code false} if the lock was
     * already handed to it (the caller then holds it).
     */
    private boolean cancel(Waiter w) {
        ArrayList<Waiter> grantedNow;
        synchronized (this) {
            if (queue == null || !queue.remove(w)) {
                return false;
            }
            inflate();
            grantedNow = grant();
            deflateIfUncontended();
        }
        complete(grantedNow);
        return true;
    }

    // ---------------------------------------------------------------- releases

    /** Releases one hold of {@code owner}; {@code false} if it holds none of that kind. */
    boolean release(Object owner, boolean shared) {
        Object s = state;
        if (s != INFLATED) {
            if (shared || s != owner) {
                return false;
            }
            int n = writeHolds;
            if (n > 1) {
                writeHolds = n - 1;
                return true;
            }
            if (STATE.compareAndSet(this, owner, null)) {
                return true;
            }
            // a waiter inflated the lock meanwhile: release under the monitor, handing the lock over
        }
        ArrayList<Waiter> grantedNow = null;
        boolean held;
        synchronized (this) {
            inflate();
            if (shared) {
                Integer n = readers == null ? null : readers.get(owner);
                held = n != null;
                if (held) {
                    if (n == 1) {
                        readers.remove(owner);
                    } else {
                        readers.put(owner, n - 1);
                    }
                    readHolds--;
                }
            } else {
                held = writer == owner;
                if (held && --writeHolds == 0) {
                    writer = null;
                }
            }
            if (held) {
                grantedNow = grant();
            }
            deflateIfUncontended();
        }
        complete(grantedNow);
        return held;
    }

    /** Releases every exclusive hold of {@code owner} (a condition wait); returns how many it had. */
    int releaseAll(Object owner) {
        ArrayList<Waiter> grantedNow;
        int holds;
        synchronized (this) {
            inflate();
            holds = writeHolds;
            writer = null;
            writeHolds = 0;
            grantedNow = grant();
            deflateIfUncontended();
        }
        complete(grantedNow);
        return holds;
    }

    /** Hands the free lock to the head of the queue. Guarded by {@code this}. */
    private ArrayList<Waiter> grant() {
        if (queue == null) {
            return null;
        }
        ArrayList<Waiter> out = null;
        for (Waiter head = queue.peek(); head != null; head = queue.peek()) {
            if (writer != null && writer != head.owner || !head.shared && !noReaders()) {
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

    boolean isWriteHeldBy(Object owner) {
        return writer() == owner;
    }

    /** Exact when {@code owner} is the caller's own ({@link #me()}), a snapshot otherwise. */
    int writeHoldsOf(Object owner) {
        return owner != null && writer() == owner ? writeHolds : 0;
    }

    synchronized int readHoldsOf(Object owner) {
        return readers == null ? 0 : readers.getOrDefault(owner, 0);
    }

    boolean isWriteLocked() {
        return writer() != null;
    }

    synchronized int readLockCount() {
        return readHolds;
    }

    /** The exclusive owner, {@code null} if none. */
    Object writer() {
        Object s = state;
        if (s != INFLATED) {
            return s;
        }
        synchronized (this) {
            s = state;
            return s == INFLATED ? writer : s;
        }
    }

    synchronized int queueLength() {
        return queue == null ? 0 : queue.size();
    }

    synchronized boolean isQueued(Object owner) {
        if (queue == null) {
            return false;
        }
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
