package dev.flow.internal;

import dev.flow.FlowHandle;
import java.time.Duration;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionService;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Phaser;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.StampedLock;

/**
 * The suspendable forms of flow handles' waits and of the JDK's blocking primitives (queues and deques,
 * latches, semaphores, phasers, completion services, executor termination, stamped locks, processes'
 * ends, {@code TimeUnit}'s sleeps and joins): the {@code ContinuationClassLoader} rewrites their call
 * sites into calls to these methods.
 *
 * <p>The JDK primitives offer no completion callback, so a flow polls: it tries the non-blocking form
 * and suspends between attempts ({@link Polling}). Timeouts end the wait as the JDK's do. With the
 * interrupt flag set, an interruptible wait makes the original call, which with the flag set never
 * parks: it returns at once if it can proceed and otherwise throws {@code InterruptedException}
 * (clearing the flag), each implementation in its own order (a {@code LinkedBlockingDeque}'s {@code
 * take} returns an element present and keeps the flag, an {@code ArrayBlockingQueue}'s throws). An
 * interrupt while the flow waits ends the wait with {@code InterruptedException}, as the JDK's waits
 * do. Outside a flow, or in a flow that never suspends, each method makes the original call. A pinned
 * flow first tries once without blocking; if it would have to wait, the pin is reported (a warning
 * once per site; strict sites refuse at once, by site) and the original call blocks.
 *
 * <p>Each class loader defines its own instrumented copy of this class, so it uses only public
 * members of other classes. Runs on the calling thread: a scheduler worker inside a flow.
 */
public final class PrimitiveAwaits {

    private PrimitiveAwaits() {
    }

    /** Replaces {@code FlowHandle.join()}. */
    public static Object join(FlowHandle<?> h) {
        int mode = Polling.mode(FlowState.current());
        if (!h.isDone() && Polling.maySuspend(mode)) {
            Awaits.park(h.toCompletionStage().toCompletableFuture(), 0);
        }
        return h.join();
    }

    /** Replaces {@code FlowHandle.get(Duration)}; the outcome comes from the handle's own {@code get}. */
    public static Object get(FlowHandle<?> h, Duration timeout)
            throws InterruptedException, ExecutionException, TimeoutException {
        int mode = Polling.mode(FlowState.current());
        if (timeout == null || h.isDone() || Thread.currentThread().isInterrupted() || !Polling.maySuspend(mode)) {
            return h.get(timeout);
        }
        long nanos;
        try {
            nanos = timeout.toNanos();
        } catch (ArithmeticException e) {
            nanos = Long.MAX_VALUE;
        }
        if (nanos > 0) {
            Awaits.parkInterruptibly(h.toCompletionStage().toCompletableFuture(), nanos);
        }
        return h.get(Duration.ZERO);
    }

    /** Replaces {@code BlockingQueue.take()}. */
    public static Object take(BlockingQueue<?> q) throws InterruptedException {
        Object r = pollFor(Polling.TAKE, q, null, 0, -1, true);
        return r != Polling.WOULD_BLOCK ? r : q.take();
    }

    /** Replaces {@code BlockingQueue.poll(long, TimeUnit)}: {@code null} once the timeout has passed. */
    public static Object poll(BlockingQueue<?> q, long timeout, TimeUnit unit) throws InterruptedException {
        Object r = unit == null ? Polling.WOULD_BLOCK : pollFor(Polling.TAKE, q, null, 0, nanos(timeout, unit), true);
        return r != Polling.WOULD_BLOCK ? r : q.poll(timeout, unit);
    }

    /** Replaces {@code BlockingQueue.put(Object)}; a {@code SynchronousQueue} blocks (see the README). */
    @SuppressWarnings("unchecked")
    public static void put(BlockingQueue<?> q, Object e) throws InterruptedException {
        if (e == null || q instanceof SynchronousQueue || pollFor(Polling.OFFER, q, e, 0, -1, true) == Polling.WOULD_BLOCK) {
            ((BlockingQueue<Object>) q).put(e);
        }
    }

    /**
     * Replaces {@code BlockingQueue.put(Object)} at the call site {@code site}: a {@code SynchronousQueue}
     * hand-off needs a thread blocked on one side, so in a flow its {@code put} is reported at the site
     * as a blocking call (a warning once per site; refused in strict mode) and blocks.
     */
    @SuppressWarnings("unchecked")
    public static void put(BlockingQueue<?> q, Object e, int site) throws InterruptedException {
        if (q instanceof SynchronousQueue) {
            Polling.unsuspendable(site);
            ((BlockingQueue<Object>) q).put(e);
            return;
        }
        put(q, e);
    }

    /**
     * Replaces {@code BlockingQueue.offer(Object, long, TimeUnit)} at the call site {@code site}: a {@code
     * SynchronousQueue}'s is reported there in a flow, as {@link #put(BlockingQueue, Object, int)}.
     */
    @SuppressWarnings("unchecked")
    public static boolean offer(BlockingQueue<?> q, Object e, long timeout, TimeUnit unit, int site) throws InterruptedException {
        if (q instanceof SynchronousQueue) {
            Polling.unsuspendable(site);
            return ((BlockingQueue<Object>) q).offer(e, timeout, unit);
        }
        return offer(q, e, timeout, unit);
    }

    /** Replaces {@code BlockingQueue.offer(Object, long, TimeUnit)}: {@code false} once the timeout has passed. */
    @SuppressWarnings("unchecked")
    public static boolean offer(BlockingQueue<?> q, Object e, long timeout, TimeUnit unit) throws InterruptedException {
        Object r = e == null || unit == null || q instanceof SynchronousQueue ? Polling.WOULD_BLOCK
                : pollFor(Polling.OFFER, q, e, 0, nanos(timeout, unit), true);
        return r != Polling.WOULD_BLOCK ? r != null : ((BlockingQueue<Object>) q).offer(e, timeout, unit);
    }

    /** Replaces {@code BlockingDeque.takeFirst()}. */
    public static Object takeFirst(BlockingDeque<?> q) throws InterruptedException {
        return takeAt(q, true);
    }

    /** Replaces {@code BlockingDeque.takeLast()}. */
    public static Object takeLast(BlockingDeque<?> q) throws InterruptedException {
        return takeAt(q, false);
    }

    private static Object takeAt(BlockingDeque<?> q, boolean first) throws InterruptedException {
        Object r = pollFor(first ? Polling.TAKE_FIRST : Polling.TAKE_LAST, q, null, 0, -1, true);
        return r != Polling.WOULD_BLOCK ? r : first ? q.takeFirst() : q.takeLast();
    }

    /** Replaces {@code BlockingDeque.pollFirst(long, TimeUnit)}: {@code null} once the timeout has passed. */
    public static Object pollFirst(BlockingDeque<?> q, long timeout, TimeUnit unit) throws InterruptedException {
        return pollAt(q, true, timeout, unit);
    }

    /** Replaces {@code BlockingDeque.pollLast(long, TimeUnit)}: {@code null} once the timeout has passed. */
    public static Object pollLast(BlockingDeque<?> q, long timeout, TimeUnit unit) throws InterruptedException {
        return pollAt(q, false, timeout, unit);
    }

    private static Object pollAt(BlockingDeque<?> q, boolean first, long timeout, TimeUnit unit)
            throws InterruptedException {
        Object r = unit == null ? Polling.WOULD_BLOCK
                : pollFor(first ? Polling.TAKE_FIRST : Polling.TAKE_LAST, q, null, 0, nanos(timeout, unit), true);
        return r != Polling.WOULD_BLOCK ? r : first ? q.pollFirst(timeout, unit) : q.pollLast(timeout, unit);
    }

    /** Replaces {@code BlockingDeque.putFirst(Object)}. */
    public static void putFirst(BlockingDeque<?> q, Object e) throws InterruptedException {
        putAt(q, true, e);
    }

    /** Replaces {@code BlockingDeque.putLast(Object)}. */
    public static void putLast(BlockingDeque<?> q, Object e) throws InterruptedException {
        putAt(q, false, e);
    }

    @SuppressWarnings("unchecked")
    private static void putAt(BlockingDeque<?> q, boolean first, Object e) throws InterruptedException {
        int op = first ? Polling.OFFER_FIRST : Polling.OFFER_LAST;
        if (e == null || pollFor(op, q, e, 0, -1, true) == Polling.WOULD_BLOCK) {
            if (first) {
                ((BlockingDeque<Object>) q).putFirst(e);
            } else {
                ((BlockingDeque<Object>) q).putLast(e);
            }
        }
    }

    /** Replaces {@code BlockingDeque.offerFirst(Object, long, TimeUnit)}: {@code false} once the timeout has passed. */
    public static boolean offerFirst(BlockingDeque<?> q, Object e, long timeout, TimeUnit unit) throws InterruptedException {
        return offerAt(q, true, e, timeout, unit);
    }

    /** Replaces {@code BlockingDeque.offerLast(Object, long, TimeUnit)}: {@code false} once the timeout has passed. */
    public static boolean offerLast(BlockingDeque<?> q, Object e, long timeout, TimeUnit unit) throws InterruptedException {
        return offerAt(q, false, e, timeout, unit);
    }

    @SuppressWarnings("unchecked")
    private static boolean offerAt(BlockingDeque<?> q, boolean first, Object e, long timeout, TimeUnit unit)
            throws InterruptedException {
        Object r = e == null || unit == null ? Polling.WOULD_BLOCK
                : pollFor(first ? Polling.OFFER_FIRST : Polling.OFFER_LAST, q, e, 0, nanos(timeout, unit), true);
        if (r != Polling.WOULD_BLOCK) {
            return r != null;
        }
        BlockingDeque<Object> d = (BlockingDeque<Object>) q;
        return first ? d.offerFirst(e, timeout, unit) : d.offerLast(e, timeout, unit);
    }

    /** Replaces {@code StampedLock.readLock()}; an interrupt stays set. */
    public static long readLock(StampedLock lock) {
        Object r = uninterruptibly(Polling.READ_LOCK, lock, 0);
        return r != Polling.WOULD_BLOCK ? (Long) r : lock.readLock();
    }

    /** Replaces {@code StampedLock.writeLock()}; an interrupt stays set. */
    public static long writeLock(StampedLock lock) {
        Object r = uninterruptibly(Polling.WRITE_LOCK, lock, 0);
        return r != Polling.WOULD_BLOCK ? (Long) r : lock.writeLock();
    }

    /** Replaces {@code StampedLock.readLockInterruptibly()}. */
    public static long readLockInterruptibly(StampedLock lock) throws InterruptedException {
        return stamp(lock, false, false, 0, null);
    }

    /** Replaces {@code StampedLock.writeLockInterruptibly()}. */
    public static long writeLockInterruptibly(StampedLock lock) throws InterruptedException {
        return stamp(lock, true, false, 0, null);
    }

    /** Replaces {@code StampedLock.tryReadLock(long, TimeUnit)}: {@code 0} once the timeout has passed. */
    public static long tryReadLock(StampedLock lock, long timeout, TimeUnit unit) throws InterruptedException {
        return stamp(lock, false, true, timeout, unit);
    }

    /** Replaces {@code StampedLock.tryWriteLock(long, TimeUnit)}: {@code 0} once the timeout has passed. */
    public static long tryWriteLock(StampedLock lock, long timeout, TimeUnit unit) throws InterruptedException {
        return stamp(lock, true, true, timeout, unit);
    }

    /** An interruptible acquisition: for {@code timeout} if {@code timed}, else for ever. */
    private static long stamp(StampedLock lock, boolean write, boolean timed, long timeout, TimeUnit unit)
            throws InterruptedException {
        int op = write ? Polling.WRITE_LOCK : Polling.READ_LOCK;
        Object r = timed && unit == null ? Polling.WOULD_BLOCK
                : pollFor(op, lock, null, 0, timed ? nanos(timeout, unit) : -1, true);
        if (r != Polling.WOULD_BLOCK) {
            return r == null ? 0L : (Long) r;
        }
        if (!timed) {
            return write ? lock.writeLockInterruptibly() : lock.readLockInterruptibly();
        }
        return write ? lock.tryWriteLock(timeout, unit) : lock.tryReadLock(timeout, unit);
    }

    /** Replaces {@code CountDownLatch.await()}. */
    public static void await(CountDownLatch latch) throws InterruptedException {
        if (pollFor(Polling.LATCH, latch, null, 0, -1, true) == Polling.WOULD_BLOCK) {
            latch.await();
        }
    }

    /** Replaces {@code CountDownLatch.await(long, TimeUnit)}: {@code false} once the timeout has passed. */
    public static boolean await(CountDownLatch latch, long timeout, TimeUnit unit) throws InterruptedException {
        Object r = unit == null ? Polling.WOULD_BLOCK : pollFor(Polling.LATCH, latch, null, 0, nanos(timeout, unit), true);
        return r != Polling.WOULD_BLOCK ? r != null : latch.await(timeout, unit);
    }

    /** Replaces {@code Semaphore.acquire()}. */
    public static void acquire(Semaphore s) throws InterruptedException {
        acquire(s, 1);
    }

    /** Replaces {@code Semaphore.acquire(int)}. */
    public static void acquire(Semaphore s, int permits) throws InterruptedException {
        if (permits < 0 || pollFor(Polling.PERMITS, s, null, permits, -1, true) == Polling.WOULD_BLOCK) {
            s.acquire(permits);
        }
    }

    /** Replaces {@code Semaphore.acquireUninterruptibly()}. */
    public static void acquireUninterruptibly(Semaphore s) {
        acquireUninterruptibly(s, 1);
    }

    /** Replaces {@code Semaphore.acquireUninterruptibly(int)}; an interrupt stays set. */
    public static void acquireUninterruptibly(Semaphore s, int permits) {
        if (permits < 0 || uninterruptibly(Polling.PERMITS, s, permits) == Polling.WOULD_BLOCK) {
            s.acquireUninterruptibly(permits);
        }
    }

    /** Replaces {@code Semaphore.tryAcquire(long, TimeUnit)}. */
    public static boolean tryAcquire(Semaphore s, long timeout, TimeUnit unit) throws InterruptedException {
        return tryAcquire(s, 1, timeout, unit);
    }

    /** Replaces {@code Semaphore.tryAcquire(int, long, TimeUnit)}: {@code false} once the timeout has passed. */
    public static boolean tryAcquire(Semaphore s, int permits, long timeout, TimeUnit unit) throws InterruptedException {
        Object r = permits < 0 || unit == null ? Polling.WOULD_BLOCK
                : pollFor(Polling.PERMITS, s, null, permits, nanos(timeout, unit), true);
        return r != Polling.WOULD_BLOCK ? r != null : s.tryAcquire(permits, timeout, unit);
    }

    /** Replaces {@code CompletionService.take()}. */
    public static Future<?> take(CompletionService<?> cs) throws InterruptedException {
        Object r = pollFor(Polling.COMPLETION, cs, null, 0, -1, true);
        return r != Polling.WOULD_BLOCK ? (Future<?>) r : cs.take();
    }

    /** Replaces {@code CompletionService.poll(long, TimeUnit)}: {@code null} once the timeout has passed. */
    public static Future<?> poll(CompletionService<?> cs, long timeout, TimeUnit unit) throws InterruptedException {
        Object r = unit == null ? Polling.WOULD_BLOCK : pollFor(Polling.COMPLETION, cs, null, 0, nanos(timeout, unit), true);
        return r != Polling.WOULD_BLOCK ? (Future<?>) r : cs.poll(timeout, unit);
    }

    /**
     * Replaces {@code ExecutorService.awaitTermination(long, TimeUnit)}: {@code false} once the timeout
     * has passed. A terminated executor answers itself.
     */
    public static boolean awaitTermination(ExecutorService es, long timeout, TimeUnit unit) throws InterruptedException {
        Object r = unit == null || es.isTerminated() ? Polling.WOULD_BLOCK
                : pollFor(Polling.TERMINATED, es, null, 0, nanos(timeout, unit), true);
        return r != Polling.WOULD_BLOCK ? r != null : es.awaitTermination(timeout, unit);
    }

    /** Replaces {@code Thread.join()}. */
    public static void join(Thread t) throws InterruptedException {
        join(t, 0);
    }

    /** Replaces {@code Thread.join(long)}: returns once the thread has ended or after {@code millis} ({@code 0}: never). */
    public static void join(Thread t, long millis) throws InterruptedException {
        if (millis < 0 || !t.isAlive()
                || pollFor(Polling.ENDED, t, null, 0, millis == 0 ? -1 : TimeUnit.MILLISECONDS.toNanos(millis), true)
                        == Polling.WOULD_BLOCK) {
            t.join(millis);
        }
    }

    /** Replaces {@code Process.waitFor()}: the exit value once the process has ended. */
    public static int waitFor(Process p) throws InterruptedException {
        pollFor(Polling.EXITED, p, null, 0, -1, true);
        return p.waitFor();
    }

    /** Replaces {@code Process.waitFor(long, TimeUnit)}: {@code false} once the timeout has passed. */
    public static boolean waitFor(Process p, long timeout, TimeUnit unit) throws InterruptedException {
        Object r = unit == null ? Polling.WOULD_BLOCK : pollFor(Polling.EXITED, p, null, 0, nanos(timeout, unit), true);
        return r != Polling.WOULD_BLOCK ? r != null : p.waitFor(timeout, unit);
    }

    /** Replaces {@code TimeUnit.sleep(long)}: {@code Thread.sleep(millis, nanos)} as the JDK computes them. */
    public static void sleep(TimeUnit unit, long timeout) throws InterruptedException {
        if (timeout > 0) {
            long ms = unit.toMillis(timeout);
            Awaits.sleep(ms, excessNanos(unit, timeout, ms));
        }
    }

    /** Replaces {@code TimeUnit.timedJoin(Thread, long)}: {@code Thread.join(millis, nanos)} as the JDK computes them. */
    public static void timedJoin(TimeUnit unit, Thread t, long timeout) throws InterruptedException {
        if (timeout > 0) {
            long ms = unit.toMillis(timeout);
            join(t, excessNanos(unit, timeout, ms) > 0 && ms < Long.MAX_VALUE ? ms + 1 : ms);
        }
    }

    /** The nanoseconds of {@code d} units beyond {@code ms} milliseconds, as {@code TimeUnit} computes them. */
    private static int excessNanos(TimeUnit unit, long d, long ms) {
        if (unit == TimeUnit.NANOSECONDS) {
            return (int) (d - ms * 1_000_000L);
        }
        return unit == TimeUnit.MICROSECONDS ? (int) (d * 1000L - ms * 1_000_000L) : 0;
    }

    /** Replaces {@code Phaser.awaitAdvance(int)}: the next phase, or a negative phase once terminated. */
    public static int awaitAdvance(Phaser phaser, int phase) {
        Object r = phase < 0 ? Polling.WOULD_BLOCK : uninterruptibly(Polling.PHASE, phaser, phase);
        return r != Polling.WOULD_BLOCK ? (Integer) r : phaser.awaitAdvance(phase);
    }

    /** Replaces {@code Phaser.arriveAndAwaitAdvance()} of a phaser without a parent; tiered phasers block. */
    public static int arriveAndAwaitAdvance(Phaser phaser) {
        if (phaser.getParent() != null || Polling.mode(FlowState.current()) == Polling.BLOCK) {
            return phaser.arriveAndAwaitAdvance();
        }
        int phase = phaser.arrive();
        return phase < 0 ? phase : awaitAdvance(phaser, phase);
    }

    private static long nanos(long timeout, TimeUnit unit) {
        return Math.max(0, unit.toNanos(timeout));
    }

    private static Object uninterruptibly(int op, Object target, int n) {
        try {
            return pollFor(op, target, null, n, -1, false);
        } catch (InterruptedException e) {
            throw new AssertionError("uninterruptible poll interrupted", e);
        }
    }

    /**
     * Repeats {@link Polling#attempt} until it succeeds, suspending between attempts, like the JDK's
     * blocking form. An interruptible wait that finds the interrupt flag set before an attempt leaves
     * the outcome to the original call (see the class comment); one interrupted while suspended throws
     * {@code InterruptedException}.
     *
     * @param n the permits to acquire, or the phase to leave
     * @param nanos how long to try, {@code -1} for ever
     * @return the attempt's result; {@code null} once {@code nanos} have passed; {@link
     *     Polling#WOULD_BLOCK} if the caller must make the blocking call: outside a flow, in a flow that
     *     never suspends, in a pinned flow whose attempt failed (its pin reported), or in an interruptible
     *     wait with the interrupt flag set
     */
    private static Object pollFor(int op, Object target, Object element, int n, long nanos, boolean interruptible)
            throws InterruptedException {
        int mode = Polling.mode(FlowState.current());
        if (mode == Polling.BLOCK) {
            return Polling.WOULD_BLOCK;
        }
        long start = nanos > 0 ? System.nanoTime() : 0;
        for (int attempt = 0;; attempt++) {
            if (interruptible && Thread.currentThread().isInterrupted()) {
                return Polling.WOULD_BLOCK;
            }
            Object r = Polling.attempt(op, target, element, n);
            if (r != null) {
                return r;
            }
            if (nanos == 0 || !Polling.maySuspend(mode)) {
                return nanos == 0 ? null : Polling.WOULD_BLOCK;
            }
            long pause = Polling.pauseNanos(attempt);
            if (nanos > 0) {
                long left = nanos - (System.nanoTime() - start);
                if (left <= 0 && attempt > 0) {
                    return null;
                }
                // A positive timeout waits at least once, as the JDK's enters its wait: the first pause is a
                // yield, however long the thread was held up since the start.
                pause = Math.min(pause, Math.max(left, 0));
            }
            Object w = pause == 0 ? Polling.YIELD : Polling.PAUSE;
            if (interruptible) {
                Awaits.parkInterruptibly(w, pause);
            } else {
                Awaits.park(w, pause);
            }
        }
    }
}
