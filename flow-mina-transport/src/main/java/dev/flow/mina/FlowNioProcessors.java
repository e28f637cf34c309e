package dev.flow.mina;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.service.IoProcessor;
import org.apache.mina.core.service.SimpleIoProcessorPool;
import org.apache.mina.transport.socket.nio.NioProcessor;
import org.apache.mina.transport.socket.nio.NioSession;

/**
 * The NIO processor pools of {@link FlowServer} and {@link FlowConnector}: MINA's own {@link
 * SimpleIoProcessorPool} of {@link FlowNioProcessor}, a {@link NioProcessor} that saves system calls
 * MINA makes per request. Setting the system property {@value #PROCESSOR_PROPERTY} to {@code mina}
 * (read at each {@link #pool}) builds the pool of MINA's stock {@link NioProcessor} instead, to compare.
 *
 * <p><b>Threads.</b> {@link #pool} is thread-safe. Each processor runs its selector loop on one
 * thread of the pool's executor at a time, as MINA's does.
 */
final class FlowNioProcessors {

    /** The system property that selects the processor: {@code flow} (the default) or {@code mina}. */
    static final String PROCESSOR_PROPERTY = "flow.mina.processor";

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
     * <p><b>After the next read.</b> {@link #afterNextRead(Runnable)} runs a task on the loop thread once
     * the loop has selected and read its sessions once more: a session opened in this iteration has then
     * been read once, so a peer that reset before that read has been seen (the session is closing). The
     * next selection does not block while such tasks wait.
     *
     * <p>Public only because MINA's {@link SimpleIoProcessorPool} calls its constructor by reflection;
     * its enclosing class keeps it out of reach of other packages.
     *
     * <p><b>Threads.</b> {@link #wakeup()} may be called on any thread; the other overrides run on the
     * processor's loop thread only.
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

        /** The processor whose loop runs on the current thread, set at each selection. */
        private static final ThreadLocal<FlowNioProcessor> LOOP = new ThreadLocal<>();

        /** Tasks given in the current iteration; loop thread only. */
        private List<Runnable> afterNextRead = new ArrayList<>();
        /** Tasks given in the previous iteration, to run at the next selection; loop thread only. */
        private List<Runnable> dueAtNextSelect = new ArrayList<>();

        /** The buffer whose last read was short; loop thread only. */
        private IoBuffer shortRead;

        private final AtomicLong selectorWakeups = new AtomicLong();
        private final AtomicLong readCalls = new AtomicLong();

        /** A processor on {@code executor} (called by {@link SimpleIoProcessorPool}). */
        public FlowNioProcessor(Executor executor) {
            super(executor);
        }

        /**
         * Runs the tasks due, then selects, without blocking if a wake-up was deferred since the last
         * selection or tasks wait for the next read.
         */
        @Override
        protected int select(long timeout) throws Exception {
            return deferredWakeupTaken() | tasksWaiting() ? selectNow() : super.select(timeout);
        }

        /**
         * Runs the tasks due, then selects, without blocking if a wake-up was deferred since the last
         * selection or tasks wait for the next read.
         */
        @Override
        protected int select() throws Exception {
            return deferredWakeupTaken() | tasksWaiting() ? selectNow() : super.select();
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

        private boolean deferredWakeupTaken() {
            Thread current = Thread.currentThread();
            if (loopThread != current || LOOP.get() != this) {
                LOOP.set(this);
            }
            loopThread = current;
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
            selectorWakeups.incrementAndGet();
            super.wakeup();
        }

        /** Reads into {@code buf}, or returns 0 at once if the last read into it was short. */
        @Override
        protected int read(NioSession session, IoBuffer buf) throws Exception {
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

        /** The number of real {@code selector.wakeup()} calls so far (for tests). */
        long selectorWakeups() {
            return selectorWakeups.get();
        }

        /** The number of real {@code read} calls on a channel so far (for tests). */
        long readCalls() {
            return readCalls.get();
        }
    }
}
