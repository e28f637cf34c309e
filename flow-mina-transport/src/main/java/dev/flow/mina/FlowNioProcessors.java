package dev.flow.mina;

import dev.flow.internal.SchedulerCore;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.util.AbstractQueue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.polling.AbstractPollingIoProcessor;
import org.apache.mina.core.service.IoProcessor;
import org.apache.mina.core.service.SimpleIoProcessorPool;
import org.apache.mina.transport.socket.nio.NioProcessor;
import org.apache.mina.transport.socket.nio.NioSession;
import org.apache.mina.util.NamePreservingRunnable;

/**
 * The NIO processor pools of {@link FlowServer} and {@link FlowConnector}: MINA's own {@link
 * SimpleIoProcessorPool} of {@link FlowNioProcessor}, a {@link NioProcessor} that saves system calls
 * MINA makes per request. Setting the system property {@value #PROCESSOR_PROPERTY} to {@code mina}
 * (read at each {@link #pool}) builds the pool of MINA's stock {@link NioProcessor} instead, to compare; it
 * keeps MINA's interest changes, which can lose a session's reads (see {@link FlowNioProcessor}).
 *
 * <p><b>Threads.</b> {@link #pool} is thread-safe. Each processor runs its selector loop on one
 * thread of the pool's executor at a time, as MINA's does.
 */
final class FlowNioProcessors {

    /** The system property that selects the processor: {@code flow} (the default) or {@code mina}. */
    static final String PROCESSOR_PROPERTY = "flow.mina.processor";

    /**
     * The most new sessions a processor registers (and fires {@code sessionCreated} and {@code
     * sessionOpened} for) in one turn of its loop, before it reads its established sessions: 16.
     */
    static final int NEW_SESSIONS_PER_TURN = 16;

    /** Whether the fall-back to MINA's unbounded queue of new sessions has been logged (once per process). */
    private static final AtomicBoolean UNBOUNDED_WARNED = new AtomicBoolean();

    /** MINA's default pool size: the number of processors plus one. */
    static final int DEFAULT_SIZE = Runtime.getRuntime().availableProcessors() + 1;

    private FlowNioProcessors() {
    }

    /**
     * A pool of {@code size} processors on {@code executor}, or, if it is {@code null}, on a cached
     * thread pool that the pool creates and shuts down when disposed (as MINA's default pool does).
     * The acceptor or connector given this pool does not dispose it: its owner must, after disposing
     * the acceptor or connector.
     */
    static SimpleIoProcessorPool<NioSession> pool(int size, Executor executor) {
        if (size < 1) {
            throw new IllegalArgumentException("size: " + size + " (expected: > 0)");
        }
        String choice = System.getProperty(PROCESSOR_PROPERTY, "flow");
        Class<? extends IoProcessor<NioSession>> type;
        if (choice.equals("flow")) {
            type = FlowNioProcessor.class;
        } else if (choice.equals("mina")) {
            type = NioProcessor.class;
        } else {
            throw new IllegalArgumentException(PROCESSOR_PROPERTY + ": " + choice + " (expected: flow or mina)");
        }
        return new SimpleIoProcessorPool<>(type, executor, size, null);
    }

    /**
     * A {@link NioProcessor} without two system calls MINA makes per request.
     *
     * <p><b>Deferred wake-up.</b> MINA wakes the selector ({@code selector.wakeup()}, a write to the
     * selector's wake-up descriptor and a read to drain it) whenever a session is flushed, added,
     * removed or has its traffic mask changed. When that happens on the processor's own loop thread
     * (a handler or flow writing from {@code messageReceived}), the loop is not blocked in {@code
     * select}: it finishes its iteration and selects again. There the wake-up only sets a flag that
     * makes the next {@code select} a {@code selectNow}; a wake-up from any other thread wakes the
     * selector as before.
     *
     * <p><b>No second read after a short read.</b> For TCP, MINA reads a readable session until
     * {@code read} returns 0 or the buffer is full, which costs one more {@code read} (returning 0) per
     * read event. Once a read has filled less than the room the buffer had, the next read into that
     * same buffer returns 0 without a system call: the socket was drained at that moment, and bytes or
     * an end of stream that arrive later make the level-triggered selector report the session again.
     *
     * <p><b>Failed reads.</b> A read that fails with an {@link IOException} (a peer's reset) closes the
     * session and fires {@code exceptionCaught} as MINA does, but without MINA's ERROR line per
     * connection ("Exception occured while trying to read"): the server or connector counts it and
     * logs at most a summary line per interval.
     *
     * <p><b>Atomic interest changes.</b> MINA changes a session's interest set by reading it and writing
     * the whole set back ({@code key.interestOps(key.interestOps() | op)}), on the loop thread (each flush
     * clears {@code OP_WRITE} first) and on whichever thread suspends or resumes the session's reads (a
     * transport's reader resumes them once it has drained its input). When the two overlapped, the loop
     * thread wrote back the set it had read before the resume: {@code OP_READ} was lost, the session was
     * never read again, and its reader waited for ever. This one sets or clears one bit at a time with
     * {@code interestOpsOr} and {@code interestOpsAnd}, which the JDK's keys make atomic. And a change of
     * a session's read suspension no longer clears {@code OP_WRITE} while a write is going out (see {@link
     * #updateTrafficControl}).
     *
     * <p><b>After the next read.</b> {@link #afterNextRead(Runnable)} runs a task on the loop thread once
     * the loop has selected and read its sessions once more: a session opened in this iteration has then
     * been read once, so a peer that reset before that read has been seen (the session is closing). The
     * next selection does not block while such tasks wait.
     *
     * <p><b>New sessions per turn.</b> MINA's loop registers every session queued on the processor in
     * one turn, before it reads the sessions it has: under a flood of new connections (a reset flood),
     * an established session's request waits behind hundreds of registrations, session creations and
     * handler starts. This one registers at most {@link #NEW_SESSIONS_PER_TURN} per turn; the rest wait
     * in the queue for the next turns, whose selections do not block while sessions wait, so the
     * established sessions are read between batches of new ones.
     *
     * <p><b>Established sessions first.</b> In a turn whose selection found an established session (one
     * that has sent bytes before) readable, the queued new sessions wait for the next turn (which
     * follows at once; at most every other turn, so that a steady load of established sessions does not
     * starve new connections), and the turn reads established sessions before sessions that have sent
     * nothing yet: under a reset flood, the flood's registrations and its resets' reads (each a failed
     * read, an exception, a close) come after an established session's request, not before it.
     *
     * <p><b>The loop stays (servers).</b> MINA's loop ends, and gives its thread back to the executor,
     * each time the processor's last session ends; the next session added starts a new loop on the
     * executor (a hand-off to a pooled thread and its wake-up). Under a flood of connections that open
     * and reset, a server's processor without established sessions did that for nearly every
     * connection. On {@link LoopThreads} that {@linkplain LoopThreads#keepLoops() keep loops} (a
     * server's), this one keeps its loop (blocked in {@code select}, which returns at least once a
     * second) until it is disposed; elsewhere (a connector's, whose idle threads must not keep a JVM
     * running) its loop ends as MINA's does.
     *
     * <p><b>The loop's thread may change.</b> On {@link LoopThreads}, a flow that the loop's thread runs
     * inline ({@link Dispatch#ADAPTIVE}) and that blocks in a pinned wait hands the loop to another thread
     * of the executor, which runs it from its next turn, and takes it back when its run is over ({@link
     * LoopBaton}): one thread at a time runs the loop's code, and each turn starts by making sure it is
     * that thread. Once the processor is disposed, a thread that was waiting for the loop ends its turn
     * without selecting, seeing no session.
     *
     * <p>Public only because MINA's {@link SimpleIoProcessorPool} calls its constructor by reflection;
     * its enclosing class keeps it out of reach of other packages.
     *
     * <p><b>Threads.</b> {@link #wakeup()}, {@link #updateTrafficControl}, {@link #setInterestedInRead} and
     * {@link #setInterestedInWrite} may be called on any thread (MINA changes traffic on the thread that
     * suspends or resumes a session's reads); the other overrides run on the processor's loop thread only.
     */
    public static final class FlowNioProcessor extends NioProcessor {

        /*
         * Why a wake-up cannot be lost. The selecting thread writes loopThread, then reads (and clears)
         * wakeupDeferred; a thread that finds itself in loopThread writes wakeupDeferred, then reads
         * loopThread again. Both fields are volatile, so the four accesses are sequentially consistent:
         * either the selecting thread reads the flag after the waker wrote it (it selects without
         * blocking), or the waker's second read comes after the selecting thread wrote loopThread (it
         * sees another thread there and wakes the selector). A thread reads itself in loopThread only
         * while it runs the loop outside select, or after the loop has ended on it and before the loop
         * has selected on another thread of the executor: the second case is the one the re-read covers.
         */
        private volatile Thread loopThread;
        private volatile boolean wakeupDeferred;

        /** MINA's accessor of a session's key, or {@code null} if out of reach (see {@link #selectionKeyAccessor()}). */
        private static final MethodHandle SELECTION_KEY = selectionKeyAccessor();

        /** MINA's {@code AbstractPollingIoProcessor.processorRef}, or {@code null} if out of reach (then no baton). */
        private static final Field PROCESSOR_REF;
        /** MINA's {@code AbstractPollingIoProcessor.Processor(AbstractPollingIoProcessor)}, or {@code null}. */
        private static final Constructor<?> PROCESSOR_NEW;

        static {
            Field ref = null;
            Constructor<?> loop = null;
            try {
                ref = AbstractPollingIoProcessor.class.getDeclaredField("processorRef");
                ref.setAccessible(true);
                loop = Class.forName(AbstractPollingIoProcessor.class.getName() + "$Processor")
                        .getDeclaredConstructor(AbstractPollingIoProcessor.class);
                loop.setAccessible(true);
            } catch (ReflectiveOperationException | RuntimeException e) {
                EventLog.warn(dev.flow.internal.Slf4j.logger(FlowNioProcessors.class),
                        System.getLogger(FlowNioProcessors.class.getName()),
                        "MINA's AbstractPollingIoProcessor.Processor is out of reach (" + e + "): an I/O thread"
                                + " cannot hand its loop to another thread, so lenient session flows resume on"
                                + " workers");
                ref = null;
                loop = null;
            }
            PROCESSOR_REF = ref;
            PROCESSOR_NEW = loop;
        }

        /** Set on the sessions this processor reads (see {@link #readsThroughDirectReaders}). */
        private static final org.apache.mina.core.session.AttributeKey FLOW_READS_KEY =
                new org.apache.mina.core.session.AttributeKey(FlowNioProcessor.class, "reads");

        /** The processor whose loop runs on the current thread, set at each selection. */
        private static final ThreadLocal<FlowNioProcessor> LOOP = new ThreadLocal<>();

        /** Tasks given in the current iteration; loop thread only. */
        private List<Runnable> afterNextRead = new ArrayList<>();
        /** Tasks given in the previous iteration, to run at the next selection; loop thread only. */
        private List<Runnable> dueAtNextSelect = new ArrayList<>();

        /** The iterator of the selected sessions of the turn, while it reads them; loop thread only. */
        private TurnKeys turnKeys;
        /** See {@link #readingSelected()}; loop thread only. */
        private boolean readingSelected;

        /** The buffer whose last read was short; loop thread only. */
        private IoBuffer shortRead;

        private final AtomicLong selectorWakeups = new AtomicLong();
        private final AtomicLong readCalls = new AtomicLong();
        private final AtomicLong spinChecks = new AtomicLong();
        private final AtomicLong newSelectors = new AtomicLong();

        /** MINA's queue of new sessions, with a budget per turn; {@code null} if it could not be set. */
        private final TurnBudgetQueue<NioSession> newSessions;

        /** Whether the loop stays when the last session ends, until the processor is disposed. */
        private final boolean keepLoop;

        /** The executor the loop runs on. */
        private final Executor executor;
        /**
         * Which thread runs the loop (see {@link LoopBaton}); {@code null} unless the loop runs on {@link
         * LoopThreads} and MINA's loop can be started on another thread.
         */
        private final LoopBaton baton;

        /** Whether the last turn left its new sessions for the next one; loop thread only. */
        private boolean deferredLastTurn;
        /** Turns that left their new sessions for the next one, for tests; loop thread only (read racy). */
        private volatile long deferredTurns;

        /**
         * A processor on {@code executor} (called by {@link SimpleIoProcessorPool}), which keeps its loop
         * if {@code executor} is {@link LoopThreads} that {@linkplain LoopThreads#keepLoops() keep loops}.
         */
        public FlowNioProcessor(Executor executor) {
            this(executor, executor instanceof LoopThreads && ((LoopThreads) executor).keepLoops());
        }

        /** A processor on {@code executor}; with {@code keepLoop}, its loop stays until it is disposed. */
        FlowNioProcessor(Executor executor, boolean keepLoop) {
            super(executor);
            this.keepLoop = keepLoop;
            this.executor = executor;
            this.baton = executor instanceof LoopThreads && PROCESSOR_REF != null ? new LoopBaton(this) : null;
            this.newSessions = budgetNewSessions(this, NEW_SESSIONS_PER_TURN);
        }

        /**
         * Replaces MINA's private queue of new sessions of {@code processor} (empty: the processor has
         * just been built) by one that hands out at most {@code perTurn} sessions per turn; returns it,
         * or {@code null} (MINA's queue stays, unbounded; logged once per process) if MINA's field is not there.
         */
        private static TurnBudgetQueue<NioSession> budgetNewSessions(FlowNioProcessor processor, int perTurn) {
            try {
                Field f = AbstractPollingIoProcessor.class.getDeclaredField("newSessions");
                f.setAccessible(true);
                TurnBudgetQueue<NioSession> q = new TurnBudgetQueue<>(perTurn);
                f.set(processor, q);
                return q;
            } catch (ReflectiveOperationException | RuntimeException e) {
                if (UNBOUNDED_WARNED.compareAndSet(false, true)) {
                    EventLog.warn(dev.flow.internal.Slf4j.logger(FlowNioProcessors.class),
                            System.getLogger(FlowNioProcessors.class.getName()),
                            "MINA's AbstractPollingIoProcessor.newSessions could not be replaced (" + e
                                    + "): I/O threads register every queued new session per turn, not at most "
                                    + perTurn);
                }
                return null;
            }
        }

        /**
         * Runs the tasks due, then selects, without blocking if a wake-up was deferred since the last
         * selection or tasks wait for the next read.
         */
        @Override
        protected int select(long timeout) throws Exception {
            if (!holdsLoop()) {
                return 0;
            }
            int n = selectsNow() ? selectNow() : super.select(timeout);
            deferNewSessionsIfEstablishedReady();
            return n;
        }

        /**
         * Runs the tasks due, then selects, without blocking if a wake-up was deferred since the last
         * selection or tasks wait for the next read.
         */
        @Override
        protected int select() throws Exception {
            if (!holdsLoop()) {
                return 0;
            }
            int n = selectsNow() ? selectNow() : super.select();
            deferNewSessionsIfEstablishedReady();
            return n;
        }

        /**
         * At the start of a turn: returns once the calling thread holds the loop ({@link LoopBaton#turn()}),
         * bound to it as the loop a flow it runs may hand off; or returns {@code false} if the processor
         * has been disposed meanwhile (the loop must end without selecting: the selection returns nothing
         * and counts as woken, so that MINA does not look for a spinning selector).
         */
        private boolean holdsLoop() {
            if (baton == null) {
                return true;
            }
            if (!baton.turn()) {
                wakeupCalled.set(true);
                return false;
            }
            turnKeys = null;
            readingSelected = false;
            SchedulerCore.bindCarrierLoop(baton);
            return true;
        }

        /**
         * After a selection: if it found an established session readable and new sessions wait, spends
         * this turn's budget of new sessions (they are registered next turn), unless the previous turn
         * did so already.
         */
        private void deferNewSessionsIfEstablishedReady() {
            if (newSessions == null) {
                return;
            }
            boolean defer = !deferredLastTurn && !newSessions.isEmpty() && establishedReady();
            if (defer) {
                newSessions.spendTurn();
                deferredTurns++;
            }
            deferredLastTurn = defer;
        }

        /** Whether the selected keys hold an established session that is readable. */
        private boolean establishedReady() {
            for (SelectionKey k : selector.selectedKeys()) {
                if (isEstablishedAndReadable(k)) {
                    return true;
                }
            }
            return false;
        }

        /** Whether {@code k}'s session has sent bytes before and is readable now (not if its key was just cancelled). */
        private static boolean isEstablishedAndReadable(SelectionKey k) {
            Object a = k.attachment();
            try {
                return a instanceof NioSession && ((NioSession) a).getReadBytes() > 0 && k.isValid() && k.isReadable();
            } catch (CancelledKeyException e) {
                return false;
            }
        }

        /**
         * The selected sessions, established readable ones first (see the class comment); removing
         * one removes its key from the selected set, as MINA's iterator does. With a {@link LoopBaton}, the
         * turn is reading its selected sessions until this iterator is exhausted: the one phase of a turn in
         * which a flow run inline may hand the loop off ({@link #readingSelected()}).
         */
        @Override
        protected Iterator<NioSession> selectedSessions() {
            Set<SelectionKey> keys = selector.selectedKeys();
            List<SelectionKey> order = null;
            if (keys.size() >= 2) {
                List<SelectionKey> first = new ArrayList<>(keys.size());
                List<SelectionKey> rest = new ArrayList<>(keys.size());
                for (SelectionKey k : keys) {
                    (isEstablishedAndReadable(k) ? first : rest).add(k);
                }
                if (!first.isEmpty() && !rest.isEmpty()) {
                    first.addAll(rest);
                    order = first;
                }
            }
            if (baton == null && order == null) {
                return super.selectedSessions();
            }
            TurnKeys turn = new TurnKeys(keys, order);
            if (baton != null) {
                turnKeys = turn;
                readingSelected = true;
            }
            return turn;
        }

        /**
         * Whether the turn is reading its selected sessions (see {@link #selectedSessions()}); loop thread
         * only. Elsewhere in a turn (flushing, removing sessions, idle checks) MINA's loop holds the state of
         * a session half done in its own frames, and no flow it runs inline may hand the loop off.
         */
        boolean readingSelected() {
            return readingSelected;
        }

        /**
         * Ends the turn's reading of its selected sessions before the loop goes to another thread
         * ({@link LoopBaton#handOff()}): the sessions not read yet leave the selected set, so that the next
         * selection, on the other thread, reports them again if they still are ready (one left in the set
         * would not be counted again, and MINA reads the selected set only when a selection counts some).
         * This thread reads no more of them when it takes the loop back. Loop thread only.
         */
        void abandonTurn() {
            if (turnKeys != null) {
                turnKeys.abandoned = true;
                turnKeys = null;
            }
            readingSelected = false;
            selector.selectedKeys().clear();
        }

        /**
         * The selected sessions of a turn, in the selected set's order or {@code order}; {@link #abandonTurn()}
         * ends it. Removing a session removes its key from the selected set.
         */
        private final class TurnKeys implements Iterator<NioSession> {
            private final Set<SelectionKey> keys;
            private final Iterator<SelectionKey> it;
            private final boolean live;
            private SelectionKey last;
            boolean abandoned;

            TurnKeys(Set<SelectionKey> keys, List<SelectionKey> order) {
                this.keys = keys;
                this.live = order == null;
                this.it = live ? keys.iterator() : order.iterator();
            }

            @Override
            public boolean hasNext() {
                boolean more = !abandoned && it.hasNext();
                if (!more && turnKeys == this) {
                    readingSelected = false;
                    turnKeys = null;
                }
                return more;
            }

            @Override
            public NioSession next() {
                if (abandoned) {
                    throw new NoSuchElementException();
                }
                last = it.next();
                return (NioSession) last.attachment();
            }

            @Override
            public void remove() {
                if (last == null) {
                    throw new IllegalStateException("remove before next");
                }
                if (live && !abandoned) {
                    it.remove();
                } else {
                    keys.remove(last);
                }
            }
        }

        /**
         * Runs the tasks due and starts a new turn of the budget of new sessions; returns whether the
         * selection must not block: a wake-up was deferred, tasks wait for the next read, or new
         * sessions wait in the queue. In the last two cases the loop is marked as woken, as a wake-up
         * would have: MINA's loop takes a selection that returns nothing within 100 ms without a wake-up
         * for a spinning selector, checks every registered channel ({@code isBrokenConnection}) and,
         * the eleventh time in a row, moves every channel to a new selector.
         */
        private boolean selectsNow() {
            enterLoop();
            boolean waiting = tasksWaiting() | newSessionsWaiting();
            if (waiting) {
                wakeupCalled.set(true);
            }
            // after the tasks: a task that writes defers its wake-up
            return deferredWakeupTaken() | waiting;
        }

        /** Starts a new turn of the budget of new sessions; returns whether sessions wait in the queue. */
        private boolean newSessionsWaiting() {
            if (newSessions == null) {
                return false;
            }
            newSessions.newTurn();
            return !newSessions.isEmpty();
        }

        /**
         * Whether the loop may end for lack of sessions: MINA's loop ends when it has none and this
         * says the selector is empty; for a processor that keeps its loop, not until it is disposed
         * (see the class comment).
         */
        @Override
        protected boolean isSelectorEmpty() {
            return loopEnded() || (!keepLoop || isDisposing()) && super.isSelectorEmpty();
        }

        /** No session once the loop has ended on another thread (its selector is closed). */
        @Override
        protected int allSessionsCount() {
            return loopEnded() ? 0 : super.allSessionsCount();
        }

        /** No session once the loop has ended on another thread (its selector is closed). */
        @Override
        protected Iterator<NioSession> allSessions() {
            return loopEnded() ? Collections.emptyIterator() : super.allSessions();
        }

        /** Ends the loop for every thread that waits for it ({@link LoopBaton#end()}), then closes the selector once. */
        @Override
        protected void doDispose() throws Exception {
            if (baton == null || baton.end()) {
                super.doDispose();
            }
        }

        /** Whether the loop has ended on another thread: its selector is closed, and this thread's turn ends the loop. */
        private boolean loopEnded() {
            return baton != null && baton.ended();
        }

        /**
         * Sets the thread that runs the loop outside its selection ({@code null} while a thread that handed
         * it off blocks), for {@link #wakeup()} and {@link #current()}. By {@link LoopBaton}.
         */
        void loopThread(Thread t) {
            loopThread = t;
        }

        /** Wakes the selector, whatever thread calls it, and counts it. By {@link #wakeup()} and {@link LoopBaton}. */
        void wakeSelector() {
            selectorWakeups.incrementAndGet();
            super.wakeup();
        }

        /**
         * Starts MINA's loop of this processor on another thread of its executor, named {@code threadName}
         * while it runs the loop (as MINA names its loop's thread), which runs it from its first turn once it
         * holds the {@link LoopBaton}. By {@link LoopBaton}.
         */
        @SuppressWarnings("unchecked")
        void startLoopElsewhere(String threadName) {
            Runnable loop;
            AtomicReference<Object> current;
            try {
                loop = (Runnable) PROCESSOR_NEW.newInstance(this);
                current = (AtomicReference<Object>) PROCESSOR_REF.get(this);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("MINA's AbstractPollingIoProcessor.Processor of " + this + ": " + e, e);
            }
            // MINA's loop starts by asserting that it is the processor's current one: made so on its own
            // thread, right before (a holder meanwhile may have let go of it, the last session gone).
            executor.execute(new NamePreservingRunnable(() -> {
                current.set(loop);
                loop.run();
            }, threadName));
        }

        /**
         * Called on a thread of {@link LoopThreads} when its run of a processor loop has returned: passes the
         * loop on to a waiting thread ({@link LoopBaton#left()}).
         */
        static void leftLoop() {
            FlowNioProcessor p = LOOP.get();
            if (p != null) {
                LOOP.remove();
                if (p.baton != null) {
                    p.baton.left();
                }
            }
        }

        /** The number of times a thread blocked in a flow handed this loop to another (for tests). */
        long loopHandOffs() {
            return baton == null ? 0 : baton.handOffs();
        }

        /** Counts MINA's check for a spinning selector, then makes it. */
        @Override
        protected boolean isBrokenConnection() throws IOException {
            spinChecks.incrementAndGet();
            return super.isBrokenConnection();
        }

        /** Counts MINA's move of every channel to a new selector, then makes it. */
        @Override
        protected void registerNewSelector() throws IOException {
            newSelectors.incrementAndGet();
            super.registerNewSelector();
        }

        /**
         * The processor whose loop runs on the calling thread (an I/O thread between two selections), or
         * {@code null} on any other thread.
         */
        static FlowNioProcessor current() {
            FlowNioProcessor p = LOOP.get();
            return p != null && p.loopThread == Thread.currentThread() ? p : null;
        }

        /**
         * Runs {@code task} on this loop's thread after the loop has selected and read its sessions once
         * more (see the class comment). Loop thread only ({@link #current()}).
         */
        void afterNextRead(Runnable task) {
            afterNextRead.add(task);
        }

        /**
         * Runs the tasks given before the previous selection (their sessions have been read since), then
         * makes those given since due at the next selection; returns whether any are now due.
         */
        private boolean tasksWaiting() {
            if (!dueAtNextSelect.isEmpty()) {
                List<Runnable> due = dueAtNextSelect;
                dueAtNextSelect = new ArrayList<>();
                RuntimeException first = null;
                for (Runnable task : due) {
                    try {
                        task.run();
                    } catch (RuntimeException e) {
                        // the others run all the same; MINA's loop reports the first
                        first = first == null ? e : first;
                    }
                }
                if (first != null) {
                    throw first;
                }
            }
            if (afterNextRead.isEmpty()) {
                return false;
            }
            List<Runnable> given = afterNextRead;
            afterNextRead = dueAtNextSelect;
            dueAtNextSelect = given;
            return true;
        }

        /** Notes that the loop runs on the calling thread (see {@link #current()}). */
        private void enterLoop() {
            Thread current = Thread.currentThread();
            if (loopThread != current || LOOP.get() != this) {
                LOOP.set(this);
            }
            loopThread = current;
        }

        private boolean deferredWakeupTaken() {
            if (wakeupDeferred) {
                wakeupDeferred = false;
                return true;
            }
            return false;
        }

        private int selectNow() throws Exception {
            selectorLock.readLock().lock();
            try {
                return selector.selectNow();
            } finally {
                selectorLock.readLock().unlock();
            }
        }

        /** Wakes the selector, or on the loop thread itself makes the next selection not block. */
        @Override
        protected void wakeup() {
            Thread current = Thread.currentThread();
            if (loopThread == current) {
                // What MINA's wakeup() also sets: the quick return of the next select is not the
                // selector spinning.
                wakeupCalled.set(true);
                wakeupDeferred = true;
                if (loopThread == current) {
                    return;
                }
            }
            wakeSelector();
        }

        /**
         * Applies {@code session}'s read and write suspension to its interest set (MINA calls it on the
         * thread that suspends or resumes them), without ever clearing {@code OP_WRITE} for a write that is
         * still going out: MINA asks for it only while writes are queued, and the write being written is no
         * longer in the queue, so a read suspended while a long write waited for room stopped that write for
         * good. {@code OP_WRITE} is set while writes are queued or one is being written, cleared only while
         * writes are suspended; otherwise left as the loop's flush last set it.
         */
        @Override
        public void updateTrafficControl(NioSession session) {
            try {
                setInterestedInRead(session, !session.isReadSuspended());
            } catch (Exception e) {
                session.getFilterChain().fireExceptionCaught(e);
            }
            try {
                if (session.isWriteSuspended()) {
                    setInterestedInWrite(session, false);
                } else if (!session.getWriteRequestQueue().isEmpty(session) || session.getCurrentWriteRequest() != null) {
                    setInterestedInWrite(session, true);
                }
            } catch (Exception e) {
                session.getFilterChain().fireExceptionCaught(e);
            }
        }

        /**
         * Sets or clears {@code OP_READ} in one atomic update of the session's interest set (see the class
         * comment), or as MINA does if its key is out of reach.
         */
        @Override
        protected void setInterestedInRead(NioSession session, boolean isInterested) throws Exception {
            if (!changeInterest(session, SelectionKey.OP_READ, isInterested)) {
                super.setInterestedInRead(session, isInterested);
            }
        }

        /**
         * Sets or clears {@code OP_WRITE} in one atomic update of the session's interest set (see the class
         * comment), or as MINA does if its key is out of reach.
         */
        @Override
        protected void setInterestedInWrite(NioSession session, boolean isInterested) throws Exception {
            if (!changeInterest(session, SelectionKey.OP_WRITE, isInterested)) {
                super.setInterestedInWrite(session, isInterested);
            }
        }

        /**
         * Adds or removes {@code op} in {@code session}'s interest set with {@code interestOpsOr} or {@code
         * interestOpsAnd}, under the selector lock's read side as MINA's changes (a new selector, which
         * takes its write side, copies the key); nothing if the session has no valid key. Returns {@code
         * false}, changing nothing, if MINA's key is out of reach.
         */
        private boolean changeInterest(NioSession session, int op, boolean on) {
            if (SELECTION_KEY == null) {
                return false;
            }
            selectorLock.readLock().lock();
            try {
                SelectionKey key = selectionKey(session);
                if (key != null && key.isValid()) {
                    if (on) {
                        key.interestOpsOr(op);
                    } else {
                        key.interestOpsAnd(~op);
                    }
                }
            } finally {
                selectorLock.readLock().unlock();
            }
            return true;
        }

        /** {@code session}'s key: MINA's package-private {@code NioSession.getSelectionKey()}. */
        private static SelectionKey selectionKey(NioSession session) {
            try {
                return (SelectionKey) SELECTION_KEY.invokeExact(session);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IllegalStateException("NioSession.getSelectionKey() of " + session + " failed: " + e, e);
            }
        }

        /**
         * MINA's {@code NioSession.getSelectionKey()}, or {@code null} (MINA's own interest updates are
         * used; logged once per process) if it is out of reach.
         */
        private static MethodHandle selectionKeyAccessor() {
            try {
                Method m = NioSession.class.getDeclaredMethod("getSelectionKey");
                m.setAccessible(true);
                return MethodHandles.lookup().unreflect(m);
            } catch (ReflectiveOperationException | RuntimeException e) {
                EventLog.warn(dev.flow.internal.Slf4j.logger(FlowNioProcessors.class),
                        System.getLogger(FlowNioProcessors.class.getName()),
                        "MINA's NioSession.getSelectionKey() is out of reach (" + e + "): I/O threads change a"
                                + " session's interest set as MINA does, a read and a write that a change from"
                                + " another thread can undo");
                return null;
            }
        }

        /** Marks {@code session} as read by this processor (see {@link #readsThroughDirectReaders}), then registers it. */
        @Override
        protected void init(NioSession session) throws Exception {
            session.setAttribute(FLOW_READS_KEY, Boolean.TRUE);
            super.init(session);
        }

        /**
         * Whether {@code session}'s I/O thread is one of these processors, which read a session through its
         * transport's {@link DirectReader} when it has one: only then may another thread read it directly
         * (MINA's own processor reads through the chain, with no exclusion from a direct read).
         */
        static boolean readsThroughDirectReaders(org.apache.mina.core.session.IoSession session) {
            return session.getAttribute(FLOW_READS_KEY) != null;
        }

        /**
         * Reads into {@code buf}, or returns 0 at once if the last read into it was short; for a session
         * whose transport reads directly, reads and delivers through its {@link DirectReader} instead and
         * returns 0 (or -1 at the end of the stream, which MINA passes through the chain).
         */
        @Override
        protected int read(NioSession session, IoBuffer buf) throws Exception {
            MinaTransport t = MinaTransport.of(session);
            DirectReader reader = t == null ? null : t.directReader();
            if (reader != null && reader.enabled()) {
                readCalls.lazySet(readCalls.get() + 1);
                return reader.read() < 0 ? -1 : 0;
            }
            IoBuffer drained = shortRead;
            shortRead = null;
            if (drained == buf) {
                return 0;
            }
            int room = buf.remaining();
            readCalls.lazySet(readCalls.get() + 1);
            int n;
            try {
                n = super.read(session, buf);
            } catch (IOException e) {
                // What MINA does with a failed read, without its ERROR line per connection: a reset is
                // the peer's doing, counted and summarized by the session's owner.
                session.closeNow();
                session.getFilterChain().fireExceptionCaught(e);
                return 0;
            }
            if (n > 0 && n < room) {
                shortRead = buf;
            }
            return n;
        }

        /** The number of turns that left their new sessions for the next one, established sessions being ready (for tests). */
        long deferredTurns() {
            return deferredTurns;
        }

        /** The number of real {@code selector.wakeup()} calls so far (for tests). */
        long selectorWakeups() {
            return selectorWakeups.get();
        }

        /** The number of MINA's checks for a spinning selector so far (for tests). */
        long spinChecks() {
            return spinChecks.get();
        }

        /** The number of times MINA moved every channel to a new selector so far (for tests). */
        long newSelectors() {
            return newSelectors.get();
        }

        /** The number of real {@code read} calls on a channel so far (for tests). */
        long readCalls() {
            return readCalls.get();
        }
    }

    /**
     * The threads a pool's processor loops run on, saying whether the processors keep their loop while
     * they have no session (see {@link FlowNioProcessor}). Thread-safe as the executor it wraps.
     */
    interface LoopThreads extends Executor {
        /** Whether processors on these threads keep their loop until disposed: a server's do. */
        boolean keepLoops();
    }

    /**
     * A queue that hands out at most {@code perTurn} elements by {@link #poll()} between two calls of
     * {@link #newTurn()}; everything else is the concurrent queue's. {@link #newTurn()} and {@link #poll()}
     * are called by the processor's loop thread only; the rest on any thread.
     */
    static final class TurnBudgetQueue<E> extends AbstractQueue<E> {
        private final Queue<E> queue = new ConcurrentLinkedQueue<>();
        private final int perTurn;
        /** Elements polled since the last {@link #newTurn()}; loop thread only. */
        private int polled;

        TurnBudgetQueue(int perTurn) {
            if (perTurn < 1) {
                throw new IllegalArgumentException("perTurn: " + perTurn + " (expected: > 0)");
            }
            this.perTurn = perTurn;
        }

        /** Restores the budget of this turn. */
        void newTurn() {
            polled = 0;
        }

        /** Spends the budget of this turn: {@link #poll()} hands out nothing until the next {@link #newTurn()}. */
        void spendTurn() {
            polled = perTurn;
        }

        /** The head, or {@code null} if the queue is empty or this turn's budget is spent. */
        @Override
        public E poll() {
            if (polled >= perTurn) {
                return null;
            }
            E e = queue.poll();
            if (e != null) {
                polled++;
            }
            return e;
        }

        @Override
        public boolean offer(E e) {
            return queue.offer(e);
        }

        @Override
        public E peek() {
            return queue.peek();
        }

        @Override
        public boolean remove(Object o) {
            return queue.remove(o);
        }

        @Override
        public boolean isEmpty() {
            return queue.isEmpty();
        }

        @Override
        public int size() {
            return queue.size();
        }

        @Override
        public Iterator<E> iterator() {
            return queue.iterator();
        }
    }
}
