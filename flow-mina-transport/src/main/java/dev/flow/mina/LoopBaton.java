package dev.flow.mina;

import dev.flow.internal.CarrierLoop;
import dev.flow.internal.SchedulerCore;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which thread runs a {@link FlowNioProcessors.FlowNioProcessor}'s loop, so that a flow the loop's
 * thread runs inline ({@link Dispatch#ADAPTIVE}) may block in a pinned wait without stalling the
 * processor's other sessions: the blocking thread hands the loop to another thread (an idle one, or a
 * new one started on the processor's executor, named after the blocking one with {@code -standin-N}) that
 * runs it from its next turn, and takes it back once
 * its run is over. The processor's own code is never run by two threads at once: only the holder of the
 * baton runs it, and it is passed at the start of a turn (before the selection), or by a thread whose
 * flow is about to block.
 *
 * <p>A hand-off happens only while the turn reads its selected sessions ({@code
 * FlowNioProcessor.readingSelected()}: elsewhere MINA's loop keeps a session's state half done in its own
 * frames); the sessions the turn has not read yet are left to the next selection, on the other thread
 * ({@code abandonTurn()}). A thread that handed the loop off is in the middle of a turn: when its run is
 * over it asks for the loop back ({@link #reclaim()}), wakes the selector, and waits until the holder
 * reaches the start of its next turn; it then finishes its own turn. The holder that passes the loop
 * waits, idle, at the start of its turn until the loop is handed to it again or ends. So a thread whose
 * flow blocked costs one thread while it blocks, as a pinned worker does; at most {@link #MAX_THREADS}
 * threads beyond the running one (idle or blocked) per processor.
 *
 * <p>A thread leaving MINA's loop ({@link #left()}) passes the baton on; when the processor is disposed
 * ({@link #end()}) every waiting thread goes on and none selects again.
 *
 * <p><b>Threads.</b> {@link #turn()} by any thread entering a turn of the loop; {@link #mayHandOff()},
 * {@link #handOff()} and {@link #reclaim()} as {@link CarrierLoop} says; {@link #left()} by a thread whose
 * run of MINA's loop returned; {@link #end()} by the thread that disposes the processor's selector.
 */
final class LoopBaton implements CarrierLoop {

    /** The most threads per processor beyond the one running its loop: {@link SchedulerCore#DEFAULT_MAX_PINNED_THREADS}. */
    static final int MAX_THREADS = SchedulerCore.DEFAULT_MAX_PINNED_THREADS;

    /** What the name of a thread started by {@link #handOff()} adds to the loop's thread name, before a number. */
    private static final String STAND_IN = "-standin-";

    private final FlowNioProcessors.FlowNioProcessor processor;

    /** The thread that runs the loop; {@code null} until the next thread to start a turn takes it. */
    private volatile Thread holder;
    /** Whether a thread asks for the loop back, or the loop has ended: the start of a turn must look. */
    private volatile boolean wanted;
    /** Whether {@link #handOff()} would succeed (the loop runs and a thread may be added or is idle). */
    private volatile boolean roomToHandOff = true;

    /** Threads that handed the loop off and wait for it back to finish their turn; under this. */
    private final ArrayDeque<Thread> reclaiming = new ArrayDeque<>();
    /** Threads waiting at the start of a turn for the loop; under this. */
    private final ArrayDeque<Thread> idle = new ArrayDeque<>();
    /** Threads started by {@link #handOff()} that have not left the loop; under this. */
    private int started;
    /** Whether the processor was disposed; written under this. */
    private volatile boolean ended;

    private final AtomicLong handOffs = new AtomicLong();
    /** Numbers the names of the threads started by {@link #handOff()}. */
    private final AtomicLong standIns = new AtomicLong();

    LoopBaton(FlowNioProcessors.FlowNioProcessor processor) {
        this.processor = processor;
    }

    /**
     * At the start of a turn, before the selection: returns once the calling thread holds the loop, or
     * with {@code false} if the loop has ended (the thread must not select again). Passes the loop to a
     * thread that asks for it back, and then waits idle for it.
     */
    boolean turn() {
        Thread me = Thread.currentThread();
        if (holder == me && !wanted) {
            return true;
        }
        synchronized (this) {
            if (holder == null && !ended) {
                holder = me;
            }
            if (holder == me && !reclaiming.isEmpty()) {
                passTo(reclaiming.poll());
            }
            if (holder != me && !ended) {
                idle.add(me);
                update();
                awaitHolding(me);
                idle.remove(me);
                update();
            }
            return !ended;
        }
    }

    /** True only on the thread holding the loop, while its turn reads its selected sessions, and with room. */
    @Override
    public boolean mayHandOff() {
        return holder == Thread.currentThread() && roomToHandOff && processor.readingSelected();
    }

    @Override
    public boolean handOff() {
        Thread me = Thread.currentThread();
        synchronized (this) {
            if (holder != me || ended || !processor.readingSelected() || idle.isEmpty() && started >= MAX_THREADS) {
                return false;
            }
            processor.abandonTurn();
            processor.loopThread(null);
            Thread standIn = idle.poll();
            if (standIn != null) {
                passTo(standIn);
                update();
                handOffs.incrementAndGet();
                return true;
            }
            started++;
            holder = null;
            update();
        }
        try {
            String name = me.getName();
            int standIn = name.indexOf(STAND_IN);
            processor.startLoopElsewhere((standIn < 0 ? name : name.substring(0, standIn)) + STAND_IN
                    + standIns.incrementAndGet());
        } catch (RuntimeException | Error e) {
            synchronized (this) {
                started--;
                if (holder == null) {
                    holder = me;
                    processor.loopThread(me);
                    update();
                    return false;
                }
            }
            // Another thread took the loop in the meantime: the hand-off happened all the same.
        }
        handOffs.incrementAndGet();
        return true;
    }

    @Override
    public void reclaim() {
        Thread me = Thread.currentThread();
        synchronized (this) {
            if (ended) {
                return;
            }
            if (holder == null) {
                holder = me;
                processor.loopThread(me);
                return;
            }
            reclaiming.add(me);
            wanted = true;
        }
        processor.wakeSelector();
        synchronized (this) {
            awaitHolding(me);
            reclaiming.remove(me);
            if (!ended) {
                processor.loopThread(me);
            }
        }
    }

    /** By a thread whose run of MINA's loop has returned: passes the loop on if it held it. */
    synchronized void left() {
        Thread me = Thread.currentThread();
        if (started > 0) {
            started--;
        }
        if (holder == me) {
            Thread next = reclaiming.poll();
            if (next == null) {
                next = idle.poll();
            }
            if (next != null) {
                passTo(next);
            } else {
                holder = null;
            }
        }
        update();
    }

    /** The loop has ended for good (the selector is being closed); returns whether this is the first call. */
    synchronized boolean end() {
        if (ended) {
            return false;
        }
        ended = true;
        holder = null;
        wanted = true;
        update();
        notifyAll();
        return true;
    }

    /** Whether the loop has ended ({@link #end()}). */
    boolean ended() {
        return ended;
    }

    /** How many times a thread handed the loop off (for tests). */
    long handOffs() {
        return handOffs.get();
    }

    private void passTo(Thread next) {
        holder = next;
        wanted = !reclaiming.isEmpty();
        notifyAll();
    }

    private void update() {
        roomToHandOff = !ended && (started < MAX_THREADS || !idle.isEmpty());
    }

    /** Waits, under this, until {@code me} holds the loop or it ended; keeps an interrupt. */
    private void awaitHolding(Thread me) {
        boolean interrupted = false;
        while (holder != me && !ended) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            me.interrupt();
        }
    }
}
