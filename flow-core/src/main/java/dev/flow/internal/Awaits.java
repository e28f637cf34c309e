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
        int mode = Polling.mode(FlowState.current());
        if (unit == null || f.isDone() || Thread.currentThread().isInterrupted() || !Polling.maySuspend(mode)) {
            return f.get(timeout, unit);
        }
        long nanos = unit.toNanos(timeout);
        if (nanos > 0) {
            park(f, nanos);
        }
        return f.get(0, TimeUnit.NANOSECONDS);
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
