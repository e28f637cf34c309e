package dev.flow.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The scheduler's queue of flows ready to run, and the parking of its idle workers.
 *
 * <p>The queue is intrusive (linked through {@link FlowState#readyNext}, no node per hand-off) and
 * lock-free for producers: {@link #add} is an increment, an exchange and a store, from any thread. A
 * flow is in the queue at most once (only the holder of its wake-up adds it). Consumers, the workers
 * (one {@code slot} each) and {@link #snapshot}, take turns under a short spin lock; a worker waits for
 * a flow first by polling {@link #SPINS} times, then parked with {@link LockSupport#park}. Producers
 * never wait; a producer descheduled between its exchange and its link holds up the consumers at its
 * flow (they find the queue not empty and yield) until it runs again, as in any such linked queue.
 *
 * <p>Wake-ups follow the Go scheduler's "spinning" rule: {@link #searching} counts the workers awake
 * without a flow; an {@code add} unparks a worker only when none is searching, and then exactly one
 * (the woken one counts as searching until it finds a flow). A worker that finds a flow while it was
 * the last one searching wakes another if flows are left, so a burst still reaches every worker.
 *
 * <p>No wake-up is lost. Every step below is a volatile access or an atomic read-modify-write, so they
 * take place in one total order. A producer adds ({@code size}+1, link) <i>before</i> it reads {@code
 * searching}; a worker going to sleep marks its slot parked, then decrements {@code searching}, then
 * re-reads {@code size} (and {@code closed}) before it parks. Take a flow added while no worker is
 * running or will come back to the queue (a running worker polls before it searches):
 * <ul>
 *   <li>if the producer's read of {@code searching} comes after some worker's decrement, it came after
 *       that worker's parked mark too: with no worker searching, the producer finds the mark, claims
 *       the slot and unparks that worker (a permit given before {@code park} makes it return);</li>
 *   <li>otherwise a worker was searching at the read, and its decrement comes later: whether it then
 *       re-reads {@code size} before parking (it sees the flow and searches again) or found another flow
 *       (as the last searcher it re-reads {@code size} and wakes another), the flow is seen by someone
 *       after it was added; by induction on the searchers, the last one to stop searching sees it.</li>
 * </ul>
 * {@link #close} writes {@code closed} and then claims every parked slot: the same argument with {@code
 * closed} for {@code size}. A slot is claimed (parked to awake) by one compare-and-set only, so the
 * count of searchers stays exact: the claimer counts the worker it wakes.
 *
 * <p>Interrupts: a worker's interrupt status makes {@code park} return at once; {@link #take} clears it
 * while it waits (so that it does not spin) and sets it again before it returns, so it never swallows an
 * interrupt (the scheduler clears a stray one itself before it runs a flow).
 *
 * <p>Thread-safe: {@link #add}, {@link #close}, {@link #size}, {@link #isEmpty} and {@link #snapshot}
 * from any thread; {@link #take} only by the one worker owning the slot.
 */
final class ReadyQueue {

    /**
     * {@link Thread#onSpinWait()} pauses, each followed by a poll, of a worker that found the queue
     * empty before it parks (0 parks after one poll): a flow handed over in that window costs no
     * wake-up. A poll of an empty queue is a volatile read; 32 pauses are roughly 0.3 to 3 µs
     * depending on the processor.
     */
    static final int SPINS = 32;
    /** Spins on the consumer lock before yielding the processor to its (possibly descheduled) holder. */
    private static final int LOCK_SPINS = 64;
    private static final int AWAKE = 0;
    private static final int PARKED = 1;
    private static final VarHandle HEAD;
    private static final VarHandle SIZE;
    private static final VarHandle SEARCHING;
    private static final VarHandle CONSUMING;
    private static final VarHandle NEXT;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            HEAD = l.findVarHandle(ReadyQueue.class, "head", FlowState.class);
            SIZE = l.findVarHandle(ReadyQueue.class, "size", int.class);
            SEARCHING = l.findVarHandle(ReadyQueue.class, "searching", int.class);
            CONSUMING = l.findVarHandle(ReadyQueue.class, "consuming", int.class);
            NEXT = l.findVarHandle(FlowState.class, "readyNext", FlowState.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Stands in the list when no flow does, so that producers never touch the consumers' end. */
    private final FlowState stub = new FlowState(null, "stub");
    /** The last node linked in (producers' end). */
    private volatile FlowState head = stub;
    /** The next node to take (consumers' end); guarded by {@link #consuming}. */
    private FlowState tail = stub;
    /** Flows added and not yet taken: counted before they are linked, so never below the linked ones. */
    private volatile int size;
    /** Workers awake without a flow (spinning, or woken and not yet polling); may dip below 0 briefly. */
    private volatile int searching;
    /** The consumers' spin lock: 1 while held. */
    private volatile int consuming;
    private volatile boolean closed;
    /** Per slot: {@link #AWAKE} or {@link #PARKED}. */
    private final AtomicIntegerArray states;
    /** Per slot: its worker, written before the slot is first marked parked. */
    private final Thread[] threads;
    private final LongAdder wakeups = new LongAdder();
    private final int spins;

    /** A queue for {@code workers} workers, slots {@code 0} to {@code workers - 1}, spinning {@link #SPINS}. */
    ReadyQueue(int workers) {
        this(workers, SPINS);
    }

    /** A queue whose workers pause {@code spins} times (at least 0) before they park. */
    ReadyQueue(int workers, int spins) {
        if (spins < 0) {
            throw new IllegalArgumentException("spins: " + spins + " (expected: >= 0)");
        }
        states = new AtomicIntegerArray(workers);
        threads = new Thread[workers];
        this.spins = spins;
    }

    /** Queues {@code f}, which must not be queued already; wakes a parked worker if none is searching. */
    void add(FlowState f) {
        SIZE.getAndAdd(this, 1);
        link(f);
        if (searching <= 0) {
            wakeOne();
        }
    }

    private void link(FlowState f) {
        f.readyNext = null;
        FlowState prev = (FlowState) HEAD.getAndSet(this, f);
        NEXT.setRelease(prev, f);
    }

    /**
     * The next flow for the worker of {@code slot}, waiting for one as long as it takes; {@code null}
     * once the queue is {@link #close closed} and empty.
     */
    FlowState take(int slot) {
        FlowState f = poll();
        return f != null ? f : search(slot);
    }

    private FlowState search(int slot) {
        threads[slot] = Thread.currentThread();
        SEARCHING.getAndAdd(this, 1);
        boolean interrupted = false;
        try {
            for (;;) {
                for (int i = 0;; i++) {
                    FlowState f = poll();
                    if (f != null) {
                        if ((int) SEARCHING.getAndAdd(this, -1) <= 1 && size > 0) {
                            // The last searcher leaves with flows still queued: someone must look.
                            wakeOne();
                        }
                        return f;
                    }
                    if (closed && size == 0) {
                        SEARCHING.getAndAdd(this, -1);
                        return null;
                    }
                    if (i == spins) {
                        break;
                    }
                    Thread.onSpinWait();
                }
                states.set(slot, PARKED);
                SEARCHING.getAndAdd(this, -1);
                if (size > 0 || closed) {
                    // Added meanwhile (or being linked by a producer that may be descheduled): search
                    // again, counted by whoever takes the slot back.
                    if (states.compareAndSet(slot, PARKED, AWAKE)) {
                        SEARCHING.getAndAdd(this, 1);
                    }
                    Thread.yield();
                    continue;
                }
                while (states.get(slot) == PARKED) {
                    LockSupport.park(this);
                    if (Thread.interrupted()) {
                        interrupted = true;
                    }
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Claims one parked slot, counts its worker as searching and unparks it. */
    private void wakeOne() {
        for (int i = 0; i < threads.length; i++) {
            if (states.get(i) == PARKED && states.compareAndSet(i, PARKED, AWAKE)) {
                SEARCHING.getAndAdd(this, 1);
                wakeups.increment();
                LockSupport.unpark(threads[i]);
                return;
            }
        }
    }

    /** The next flow, or {@code null} if none is linked yet. */
    FlowState poll() {
        if (size == 0) {
            return null;
        }
        FlowState f;
        lock();
        try {
            f = unlink();
        } finally {
            CONSUMING.setRelease(this, 0);
        }
        if (f != null) {
            SIZE.getAndAdd(this, -1);
        }
        return f;
    }

    /** Vyukov's intrusive multi-producer queue, taken under {@link #consuming}. */
    private FlowState unlink() {
        FlowState t = tail;
        FlowState next = (FlowState) NEXT.getAcquire(t);
        if (t == stub) {
            if (next == null) {
                return null;
            }
            tail = next;
            t = next;
            next = (FlowState) NEXT.getAcquire(t);
        }
        if (next == null) {
            if (t != head) {
                // A producer has exchanged the head but not linked its flow yet.
                return null;
            }
            // t is the last flow: put the stub behind it so that it can leave.
            link(stub);
            next = (FlowState) NEXT.getAcquire(t);
            if (next == null) {
                return null;
            }
        }
        tail = next;
        // Already linked (next is set), so no producer writes it any more; cleared so that an ended
        // flow does not keep the ones behind it reachable.
        t.readyNext = null;
        return t;
    }

    private void lock() {
        int spins = 0;
        while (consuming != 0 || !CONSUMING.compareAndSet(this, 0, 1)) {
            if (++spins < LOCK_SPINS) {
                Thread.onSpinWait();
            } else {
                spins = 0;
                Thread.yield();
            }
        }
    }

    /** Lets every worker return {@code null} from {@link #take} once the queue is empty; wakes them. */
    void close() {
        closed = true;
        for (int i = 0; i < threads.length; i++) {
            if (states.compareAndSet(i, PARKED, AWAKE)) {
                SEARCHING.getAndAdd(this, 1);
                LockSupport.unpark(threads[i]);
            }
        }
    }

    /** Whether no flow is queued (a flow being added counts as queued). */
    boolean isEmpty() {
        return size == 0;
    }

    /** Flows queued. */
    int size() {
        return Math.max(0, size);
    }

    /** Parked workers unparked by an {@link #add} so far: for tests and measurements. */
    long wakeups() {
        return wakeups.sum();
    }

    /** The queued flows in order, for {@code dump()}; briefly holds up the workers. */
    List<FlowState> snapshot() {
        List<FlowState> out = new ArrayList<>();
        lock();
        try {
            // Nothing leaves while the lock is held; flows linked meanwhile are not walked.
            int left = size;
            for (FlowState f = tail; f != null && left > 0; f = (FlowState) NEXT.getAcquire(f)) {
                if (f != stub) {
                    out.add(f);
                    left--;
                }
            }
        } finally {
            CONSUMING.setRelease(this, 0);
        }
        return out;
    }
}
