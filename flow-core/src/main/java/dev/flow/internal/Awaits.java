package dev.flow.internal;

import dev.flow.Connector;
import dev.flow.Transport;
import dev.flow.spi.AsyncConnector;
import dev.flow.spi.Awaitable;
import dev.flow.spi.AsyncTransport;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
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
     * Waits for {@code w} without regard to interrupts (like {@code CompletableFuture.join()}): suspends
     * inside a flow, blocks elsewhere. The interrupt status is kept.
     *
     * @param timeoutNanos how long to wait, {@code 0} for ever
     * @return {@code true} if {@code w} completed, {@code false} on timeout
     * @throws java.util.concurrent.CancellationException if the flow is cancelled or its scheduler closes
     */
    public static boolean park(Object w, long timeoutNanos) {
        if (Waits.isDone(w)) {
            return true;
        }
        int r = suspend(w, timeoutNanos, FlowState.UNINTERRUPTIBLE);
        return r < 0 ? Waits.blockUninterruptibly(w, timeoutNanos) : r == 1;
    }

    /**
     * Waits for {@code w} like an interruptible blocking call: with the interrupt status set (before or
     * while waiting), throws {@link InterruptedException} and clears it; suspends inside a flow, blocks
     * elsewhere.
     *
     * @param timeoutNanos how long to wait, {@code 0} for ever
     * @return {@code true} if {@code w} completed, {@code false} on timeout
     * @throws InterruptedException if interrupted, or if the flow is cancelled
     */
    public static boolean parkInterruptibly(Object w, long timeoutNanos) throws InterruptedException {
        if (Waits.isDone(w)) {
            return true;
        }
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        int r = suspend(w, timeoutNanos, FlowState.INTERRUPTIBLE);
        return r < 0 ? Waits.blockInterruptibly(w, timeoutNanos) : r == 1;
    }

    /**
     * Suspends the current flow on {@code w} in {@code mode} ({@code FlowState.UNINTERRUPTIBLE},
     * {@code INTERRUPTIBLE} or {@code IO}).
     *
     * @return {@code 1} if resumed after {@code w} completed, {@code 0} on timeout, {@code -1} if the
     *     caller must block instead (no flow, pinned, or the policy says so)
     */
    private static int suspend(Object w, long timeoutNanos, int mode) {
        FlowState f = FlowState.current();
        if (f == null || !f.beforeSuspend(w, timeoutNanos, mode)) {
            return -1;
        }
        Continuation.suspend();
        return f.afterResume() ? 1 : 0;
    }

    /**
     * Waits for the receiver of a parameterless uninterruptible blocking method (e.g. {@code
     * CompletableFuture.join()}); the interrupt status is kept.
     */
    public static void ready(Object w) {
        if (!Waits.isDone(w)) {
            // When the flow cannot suspend, the original call that follows blocks, with its own
            // interrupt semantics.
            suspend(w, 0, FlowState.UNINTERRUPTIBLE);
        }
    }

    /**
     * Waits for the receiver of a parameterless interruptible blocking method (e.g. MINA's {@code
     * IoFuture.await()}): with the interrupt status set it returns at once, so that the original call
     * throws as on a plain thread.
     */
    public static void readyInterruptibly(Object w) {
        if (!Waits.isDone(w) && !Thread.currentThread().isInterrupted()) {
            suspend(w, 0, FlowState.INTERRUPTIBLE);
        }
    }

    /**
     * Replaces interruptible {@code await(long millis)}-style calls: waits up to {@code millis}; a
     * timeout of 0 or less only reports whether {@code w} is done.
     *
     * @throws InterruptedException if the interrupt status is set, or the flow is cancelled
     */
    public static boolean readyMillisInterruptibly(Object w, long millis) throws InterruptedException {
        return readyTimeoutInterruptibly(w, millis, TimeUnit.MILLISECONDS);
    }

    /** Replaces interruptible {@code await(long, TimeUnit)}-style calls; see {@link #readyMillisInterruptibly}. */
    public static boolean readyTimeoutInterruptibly(Object w, long timeout, TimeUnit unit) throws InterruptedException {
        if (unit.toNanos(timeout) <= 0) {
            return Waits.isDone(w);
        }
        return parkInterruptibly(w, timeoutNanos(timeout, unit));
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
     * Replaces {@code Future.get()}: suspends until the future is done, unless the interrupt status is
     * set, in which case the future's own {@code get()} throws as on a plain thread.
     */
    public static Object get(Future<?> f) throws InterruptedException, ExecutionException {
        if (!f.isDone() && !Thread.currentThread().isInterrupted()) {
            suspend(f, 0, FlowState.INTERRUPTIBLE);
        }
        return f.get();
    }

    /** Replaces {@code Future.get(long, TimeUnit)}. */
    public static Object futureGet(Future<?> f, long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        if (!f.isDone() && !Thread.currentThread().isInterrupted() && unit.toNanos(timeout) > 0
                && suspend(f, timeoutNanos(timeout, unit), FlowState.INTERRUPTIBLE) == 0) {
            throw new TimeoutException("timed out after " + timeout + " " + unit);
        }
        return f.get(timeout, unit);
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
        FlowState f = FlowState.current();
        if (f == null) {
            Thread.sleep(millis);
            return;
        }
        if (millis < 0) {
            throw new IllegalArgumentException("timeout value is negative");
        }
        sleepNanos(f, TimeUnit.MILLISECONDS.toNanos(millis));
    }

    /** Replaces {@code Thread.sleep(long, int)}. */
    public static void sleep(long millis, int nanos) throws InterruptedException {
        FlowState f = FlowState.current();
        if (f == null) {
            Thread.sleep(millis, nanos);
            return;
        }
        if (millis < 0) {
            throw new IllegalArgumentException("timeout value is negative");
        }
        if (nanos < 0 || nanos > 999_999) {
            throw new IllegalArgumentException("nanosecond timeout value out of range");
        }
        sleepNanos(f, TimeUnit.MILLISECONDS.toNanos(millis) + nanos);
    }

    /** Replaces {@code Thread.sleep(Duration)} and {@code Flow.sleep(Duration)}. */
    public static void sleep(Duration duration) throws InterruptedException {
        if (duration.isNegative()) {
            return;
        }
        long nanos = saturatedNanos(duration);
        FlowState f = FlowState.current();
        if (f == null) {
            Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
            return;
        }
        sleepNanos(f, nanos);
    }

    private static void sleepNanos(FlowState f, long nanos) throws InterruptedException {
        if (Thread.currentThread().isInterrupted()) {
            // Throws the JDK's own "sleep interrupted" and clears the status, as on a plain thread.
            Thread.sleep(0);
        }
        if (nanos <= 0) {
            return;
        }
        if (suspend(f.sleep(nanos), 0, FlowState.INTERRUPTIBLE) < 0) {
            TimeUnit.NANOSECONDS.sleep(nanos);
        }
    }

    /** Replaces {@code Connector.connect()}. */
    public static Transport connect(Connector c) throws IOException {
        if (!(c instanceof AsyncConnector)) {
            return c.connect();
        }
        AsyncConnector a = (AsyncConnector) c;
        Object attempt = a.connectAsync();
        parkIo(attempt, 0);
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
        if (!parkIo(a.inputReady(), saturatedNanos(timeout))) {
            throw new SocketTimeoutException("read timed out after " + timeout.toMillis() + " ms (readTimeout)");
        }
    }

    private static void awaitWrite(AsyncTransport a, Awaitable write) throws IOException {
        Duration timeout = a.config().writeTimeout();
        if (!parkIo(write, saturatedNanos(timeout))) {
            throw new SocketTimeoutException("write timed out after " + timeout.toMillis() + " ms (writeTimeout)");
        }
        a.checkWrite(write);
    }

    /** Like {@link #park}, but a cancelled flow gets an {@link java.io.InterruptedIOException}. */
    private static boolean parkIo(Object w, long timeoutNanos) throws IOException {
        if (Waits.isDone(w)) {
            return true;
        }
        int r = suspend(w, timeoutNanos, FlowState.IO);
        return r < 0 ? Waits.block(w, timeoutNanos) : r == 1;
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
