package dev.flow.internal;

import dev.flow.Connector;
import dev.flow.FlowHandle;
import dev.flow.Transport;
import dev.flow.spi.AsyncConnector;
import dev.flow.spi.Awaitable;
import dev.flow.spi.AsyncTransport;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionService;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Phaser;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.commons.javaflow.api.Continuation;

/**
 * The suspendable forms of every blocking call: the {@code ContinuationClassLoader} rewrites
 * suspension-point call sites into calls to these methods.
 *
 * <p>Each class loader defines its own instrumented copy of this class, so it uses only public
 * members of other classes. Outside a flow, or when the flow must not suspend, every method blocks
 * like the call it replaces. Runs on the calling thread: a scheduler worker inside a flow.
 */
public final class Awaits {

    private Awaits() {
    }

    /**
     * Waits for {@code w}: suspends inside a flow, blocks elsewhere.
     *
     * @param timeoutNanos how long to wait, {@code 0} for ever
     * @return {@code true} if {@code w} completed, {@code false} on timeout
     */
    public static boolean park(Object w, long timeoutNanos) {
        Locks.checkAwait();
        if (Waits.isDone(w)) {
            return true;
        }
        FlowState f = FlowState.current();
        if (f == null || Locks.pins(f) || !f.beforeSuspend(w, timeoutNanos)) {
            return Waits.block(w, timeoutNanos);
        }
        Continuation.suspend();
        return f.afterResume();
    }

    /** Waits for the receiver of a parameterless blocking method (e.g. {@code Future.get()}). */
    public static void ready(Object w) {
        park(w, 0);
    }

    /** Replaces {@code IoFuture.await(long)}-style calls: waits up to {@code millis}. */
    public static boolean readyMillis(Object w, long millis) {
        return park(w, timeoutNanos(millis, TimeUnit.MILLISECONDS));
    }

    /** Replaces {@code await(long, TimeUnit)}-style calls. */
    public static boolean readyTimeout(Object w, long timeout, TimeUnit unit) {
        return park(w, timeoutNanos(timeout, unit));
    }

    /**
     * Replaces {@code Future.get(long, TimeUnit)}. The outcome, a {@code TimeoutException} included,
     * comes from the future's own {@code get}, so its type and message are the JDK's.
     */
    public static Object futureGet(Future<?> f, long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        FlowState s = FlowState.current();
        if (unit == null || Polling.mustBlock(s) || f.isDone() || Thread.currentThread().isInterrupted()) {
            return f.get(timeout, unit);
        }
        long nanos = unit.toNanos(timeout);
        if (nanos > 0) {
            park(f, nanos);
        }
        return f.get(0, TimeUnit.NANOSECONDS);
    }

    /** Replaces {@code FlowHandle.join()}. */
    public static Object join(FlowHandle<?> h) {
        if (!Polling.mustBlock(FlowState.current()) && !h.isDone()) {
            park(h.toCompletionStage().toCompletableFuture(), 0);
        }
        return h.join();
    }

    /** Replaces {@code FlowHandle.get(Duration)}; the outcome comes from the handle's own {@code get}. */
    public static Object get(FlowHandle<?> h, Duration timeout)
            throws InterruptedException, ExecutionException, TimeoutException {
        if (timeout == null || Polling.mustBlock(FlowState.current()) || h.isDone()
                || Thread.currentThread().isInterrupted()) {
            return h.get(timeout);
        }
        long nanos = saturatedNanos(timeout);
        if (nanos > 0) {
            park(h.toCompletionStage().toCompletableFuture(), nanos);
        }
        return h.get(Duration.ZERO);
    }

    /** Replaces {@code BlockingQueue.take()}. */
    public static Object take(BlockingQueue<?> q) throws InterruptedException {
        if (Polling.mustBlock(FlowState.current())) {
            return q.take();
        }
        return pollFor(Polling.TAKE, q, null, 0, -1, true);
    }

    /** Replaces {@code BlockingQueue.poll(long, TimeUnit)}: {@code null} once the timeout has passed. */
    public static Object poll(BlockingQueue<?> q, long timeout, TimeUnit unit) throws InterruptedException {
        if (unit == null || Polling.mustBlock(FlowState.current())) {
            return q.poll(timeout, unit);
        }
        return pollFor(Polling.TAKE, q, null, 0, Math.max(0, unit.toNanos(timeout)), true);
    }

    /** Replaces {@code BlockingQueue.put(Object)}; a {@code SynchronousQueue} blocks (see the README). */
    @SuppressWarnings("unchecked")
    public static void put(BlockingQueue<?> q, Object e) throws InterruptedException {
        if (e == null || q instanceof SynchronousQueue || Polling.mustBlock(FlowState.current())) {
            ((BlockingQueue<Object>) q).put(e);
            return;
        }
        pollFor(Polling.OFFER, q, e, 0, -1, true);
    }

    /** Replaces {@code BlockingQueue.offer(Object, long, TimeUnit)}: {@code false} once the timeout has passed. */
    @SuppressWarnings("unchecked")
    public static boolean offer(BlockingQueue<?> q, Object e, long timeout, TimeUnit unit) throws InterruptedException {
        if (e == null || unit == null || q instanceof SynchronousQueue || Polling.mustBlock(FlowState.current())) {
            return ((BlockingQueue<Object>) q).offer(e, timeout, unit);
        }
        return pollFor(Polling.OFFER, q, e, 0, Math.max(0, unit.toNanos(timeout)), true) != null;
    }

    /** Replaces {@code CountDownLatch.await()}. */
    public static void await(CountDownLatch latch) throws InterruptedException {
        if (Polling.mustBlock(FlowState.current())) {
            latch.await();
            return;
        }
        pollFor(Polling.LATCH, latch, null, 0, -1, true);
    }

    /** Replaces {@code CountDownLatch.await(long, TimeUnit)}: {@code false} once the timeout has passed. */
    public static boolean await(CountDownLatch latch, long timeout, TimeUnit unit) throws InterruptedException {
        if (unit == null || Polling.mustBlock(FlowState.current())) {
            return latch.await(timeout, unit);
        }
        return pollFor(Polling.LATCH, latch, null, 0, Math.max(0, unit.toNanos(timeout)), true) != null;
    }

    /** Replaces {@code Semaphore.acquire()}. */
    public static void acquire(Semaphore s) throws InterruptedException {
        acquire(s, 1);
    }

    /** Replaces {@code Semaphore.acquire(int)}. */
    public static void acquire(Semaphore s, int permits) throws InterruptedException {
        if (permits < 0 || Polling.mustBlock(FlowState.current())) {
            s.acquire(permits);
            return;
        }
        pollFor(Polling.PERMITS, s, null, permits, -1, true);
    }

    /** Replaces {@code Semaphore.acquireUninterruptibly()}. */
    public static void acquireUninterruptibly(Semaphore s) {
        acquireUninterruptibly(s, 1);
    }

    /** Replaces {@code Semaphore.acquireUninterruptibly(int)}; an interrupt stays set. */
    public static void acquireUninterruptibly(Semaphore s, int permits) {
        if (permits < 0 || Polling.mustBlock(FlowState.current())) {
            s.acquireUninterruptibly(permits);
            return;
        }
        try {
            pollFor(Polling.PERMITS, s, null, permits, -1, false);
        } catch (InterruptedException e) {
            throw new AssertionError("uninterruptible poll interrupted", e);
        }
    }

    /** Replaces {@code Semaphore.tryAcquire(long, TimeUnit)}. */
    public static boolean tryAcquire(Semaphore s, long timeout, TimeUnit unit) throws InterruptedException {
        return tryAcquire(s, 1, timeout, unit);
    }

    /** Replaces {@code Semaphore.tryAcquire(int, long, TimeUnit)}: {@code false} once the timeout has passed. */
    public static boolean tryAcquire(Semaphore s, int permits, long timeout, TimeUnit unit) throws InterruptedException {
        if (permits < 0 || unit == null || Polling.mustBlock(FlowState.current())) {
            return s.tryAcquire(permits, timeout, unit);
        }
        return pollFor(Polling.PERMITS, s, null, permits, Math.max(0, unit.toNanos(timeout)), true) != null;
    }

    /** Replaces {@code CompletionService.take()}. */
    public static Future<?> take(CompletionService<?> cs) throws InterruptedException {
        if (Polling.mustBlock(FlowState.current())) {
            return cs.take();
        }
        return (Future<?>) pollFor(Polling.COMPLETION, cs, null, 0, -1, true);
    }

    /** Replaces {@code CompletionService.poll(long, TimeUnit)}: {@code null} once the timeout has passed. */
    public static Future<?> poll(CompletionService<?> cs, long timeout, TimeUnit unit) throws InterruptedException {
        if (unit == null || Polling.mustBlock(FlowState.current())) {
            return cs.poll(timeout, unit);
        }
        return (Future<?>) pollFor(Polling.COMPLETION, cs, null, 0, Math.max(0, unit.toNanos(timeout)), true);
    }

    /**
     * Replaces {@code ExecutorService.awaitTermination(long, TimeUnit)}: {@code false} once the timeout
     * has passed. A terminated executor answers itself.
     */
    public static boolean awaitTermination(ExecutorService es, long timeout, TimeUnit unit) throws InterruptedException {
        if (unit == null || es.isTerminated() || Polling.mustBlock(FlowState.current())) {
            return es.awaitTermination(timeout, unit);
        }
        return pollFor(Polling.TERMINATED, es, null, 0, Math.max(0, unit.toNanos(timeout)), true) != null;
    }

    /** Replaces {@code Phaser.awaitAdvance(int)}: the next phase, or a negative phase once terminated. */
    public static int awaitAdvance(Phaser phaser, int phase) {
        if (phase < 0 || Polling.mustBlock(FlowState.current())) {
            return phaser.awaitAdvance(phase);
        }
        try {
            return (Integer) pollFor(Polling.PHASE, phaser, null, phase, -1, false);
        } catch (InterruptedException e) {
            throw new AssertionError("uninterruptible poll interrupted", e);
        }
    }

    /** Replaces {@code Phaser.arriveAndAwaitAdvance()} of a phaser without a parent; tiered phasers block. */
    public static int arriveAndAwaitAdvance(Phaser phaser) {
        if (phaser.getParent() != null || Polling.mustBlock(FlowState.current())) {
            return phaser.arriveAndAwaitAdvance();
        }
        int phase = phaser.arrive();
        return phase < 0 ? phase : awaitAdvance(phaser, phase);
    }

    /**
     * Repeats {@link Polling#attempt} until it succeeds, suspending between attempts, like the JDK's
     * blocking form: an interruptible wait throws {@code InterruptedException} (clearing the flag)
     * before each attempt if the flag is set.
     *
     * @param n the permits to acquire, or the phase to leave
     * @param nanos how long to try, {@code -1} for ever
     * @return the attempt's result, or {@code null} once {@code nanos} have passed
     */
    private static Object pollFor(int op, Object target, Object element, int n, long nanos, boolean interruptible)
            throws InterruptedException {
        long start = nanos > 0 ? System.nanoTime() : 0;
        for (int attempt = 0;; attempt++) {
            if (interruptible && Thread.interrupted()) {
                throw new InterruptedException();
            }
            Object r = Polling.attempt(op, target, element, n);
            if (r != null) {
                return r;
            }
            long pause = Polling.pauseNanos(attempt);
            if (nanos >= 0) {
                long left = nanos - (System.nanoTime() - start);
                if (nanos == 0 || left <= 0) {
                    return null;
                }
                pause = Math.min(pause, left);
            }
            if (pause == 0) {
                park(Polling.YIELD, 0);
            } else {
                park(Polling.PAUSE, pause);
            }
        }
    }

    /** Replaces {@code Flow.await(CompletionStage)}. */
    public static Object await(CompletionStage<?> stage) {
        CompletableFuture<?> f = stage.toCompletableFuture();
        park(f, 0);
        return f.join();
    }

    /** Replaces {@code Flow.await(Future)}. */
    public static Object await(Future<?> future) {
        park(future, 0);
        return Waits.getDone(future);
    }

    /** Replaces {@code Flow.await(Awaitable)}. */
    public static void await(Awaitable awaitable) {
        park(awaitable, 0);
    }

    /** Replaces {@code Thread.sleep(long)}. */
    public static void sleep(long millis) throws InterruptedException {
        if (millis < 0) {
            throw new IllegalArgumentException("timeout value is negative");
        }
        sleepNanos(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    /** Replaces {@code Thread.sleep(long, int)}. */
    public static void sleep(long millis, int nanos) throws InterruptedException {
        if (millis < 0) {
            throw new IllegalArgumentException("timeout value is negative");
        }
        if (nanos < 0 || nanos > 999_999) {
            throw new IllegalArgumentException("nanosecond timeout value out of range");
        }
        sleepNanos(TimeUnit.MILLISECONDS.toNanos(millis) + nanos);
    }

    /** Replaces {@code Thread.sleep(Duration)} and {@code Flow.sleep(Duration)}. */
    public static void sleep(Duration duration) throws InterruptedException {
        if (duration.isNegative()) {
            return;
        }
        sleepNanos(saturatedNanos(duration));
    }

    private static void sleepNanos(long nanos) throws InterruptedException {
        FlowState f = FlowState.current();
        if (f == null) {
            TimeUnit.NANOSECONDS.sleep(nanos);
            return;
        }
        if (nanos <= 0) {
            return;
        }
        park(f.scheduler().sleep(nanos), 0);
    }

    /** Replaces {@code Connector.connect()}. */
    public static Transport connect(Connector c) throws IOException {
        if (!(c instanceof AsyncConnector)) {
            return c.connect();
        }
        AsyncConnector a = (AsyncConnector) c;
        Object attempt = a.connectAsync();
        park(attempt, 0);
        return a.transportOf(attempt);
    }

    /** Replaces {@code Transport.readLine()}. */
    public static String readLine(Transport t) throws IOException {
        if (!(t instanceof AsyncTransport)) {
            return t.readLine();
        }
        AsyncTransport a = (AsyncTransport) t;
        for (;;) {
            String line = a.pollLine();
            if (line != null || a.isInputClosed()) {
                return line;
            }
            awaitInput(a);
        }
    }

    /** Replaces {@code Transport.read(byte[], int, int)}. */
    public static int read(Transport t, byte[] dst, int off, int len) throws IOException {
        if (!(t instanceof AsyncTransport)) {
            return t.read(dst, off, len);
        }
        AsyncTransport a = (AsyncTransport) t;
        if (len == 0) {
            return 0;
        }
        for (;;) {
            int n = a.pollRead(dst, off, len);
            if (n != 0) {
                return n;
            }
            awaitInput(a);
        }
    }

    /** Replaces {@code Transport.writeLine(String)}. */
    public static void writeLine(Transport t, String line) throws IOException {
        if (!(t instanceof AsyncTransport)) {
            t.writeLine(line);
            return;
        }
        AsyncTransport a = (AsyncTransport) t;
        awaitWrite(a, a.writeLineAsync(line));
    }

    /** Replaces {@code Transport.write(byte[], int, int)}. */
    public static void write(Transport t, byte[] src, int off, int len) throws IOException {
        if (!(t instanceof AsyncTransport)) {
            t.write(src, off, len);
            return;
        }
        AsyncTransport a = (AsyncTransport) t;
        awaitWrite(a, a.writeAsync(src, off, len));
    }

    /** Replaces {@code Transport.flush()}. */
    public static void flush(Transport t) throws IOException {
        if (!(t instanceof AsyncTransport)) {
            t.flush();
            return;
        }
        AsyncTransport a = (AsyncTransport) t;
        awaitWrite(a, a.flushAsync());
    }

    private static void awaitInput(AsyncTransport a) throws IOException {
        Duration timeout = a.config().readTimeout();
        if (!park(a.inputReady(), saturatedNanos(timeout))) {
            throw new SocketTimeoutException("read timed out after " + timeout.toMillis() + " ms (readTimeout)");
        }
    }

    private static void awaitWrite(AsyncTransport a, Awaitable write) throws IOException {
        Duration timeout = a.config().writeTimeout();
        if (!park(write, saturatedNanos(timeout))) {
            throw new SocketTimeoutException("write timed out after " + timeout.toMillis() + " ms (writeTimeout)");
        }
        a.checkWrite(write);
    }

    private static long timeoutNanos(long timeout, TimeUnit unit) {
        long n = unit.toNanos(timeout);
        return n <= 0 ? 1 : n;
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}
