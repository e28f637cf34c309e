package dev.flow;

import dev.flow.internal.FlowResult;
import dev.flow.internal.FlowState;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The completion of one flow: its result or its failure, and the way to cancel it. Thread-safe.
 *
 * @param <T> the flow's result type
 */
public final class FlowHandle<T> {

    /** A {@code FlowResult}, which knows its flow: one field keeps the handle small. */
    private final CompletableFuture<T> result;

    FlowHandle(CompletableFuture<T> result) {
        this.result = result;
    }

    private FlowState flow() {
        return ((FlowResult) (CompletableFuture<?>) result).flow();
    }

    /**
     * Cancels the flow. A flow not yet started never runs. A started flow gets, at the suspension point
     * where it waits now or at its next one, an {@link InterruptedException} (interruptible waits such as
     * {@code Thread.sleep}, {@code Future.get}), an {@link java.io.InterruptedIOException} (transport
     * I/O) or a {@link java.util.concurrent.CancellationException} (uninterruptible waits such as
     * {@code CompletableFuture.join}); it keeps getting one at every later suspension point. A task that
     * was not instrumented is interrupted on its worker. Once the flow has ended (its finally blocks
     * have run), this handle completes with a {@link java.util.concurrent.CancellationException}
     * whatever the flow returned, caused by the flow's own failure if it had one. The flow's interrupt
     * status is not changed.
     *
     * @return {@code true} if this call cancelled the flow; {@code false} if it had already ended or
     *     been cancelled
     */
    public boolean cancel() {
        return flow().cancel();
    }

    /** Returns whether the flow ended because it was cancelled, or failed by its scheduler closing. */
    public boolean isCancelled() {
        return result.isCancelled();
    }

    /** Returns whether the flow has ended. */
    public boolean isDone() {
        return result.isDone();
    }

    /** Returns whether the flow ended with an exception. */
    public boolean isFailed() {
        return result.isCompletedExceptionally();
    }

    /**
     * Waits for the flow and returns its result.
     *
     * @throws java.util.concurrent.CompletionException wrapping the flow's failure
     * @throws java.util.concurrent.CancellationException if the flow was cancelled or failed by its
     *     scheduler closing
     */
    public T join() {
        return result.join();
    }

    /**
     * Waits up to {@code timeout} for the flow and returns its result.
     *
     * @throws ExecutionException wrapping the flow's failure
     * @throws TimeoutException if the flow is still running after {@code timeout}
     * @throws java.util.concurrent.CancellationException if the flow was cancelled or failed by its
     *     scheduler closing
     */
    public T get(Duration timeout) throws InterruptedException, ExecutionException, TimeoutException {
        Objects.requireNonNull(timeout, "timeout");
        return result.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** A completion stage of the flow's result; completing it does not affect the flow. */
    public CompletionStage<T> toCompletionStage() {
        return result.copy();
    }

    @Override
    public String toString() {
        return "FlowHandle[" + flow() + ", " + (result.isDone() ? (isCancelled() ? "cancelled" : isFailed() ? "failed" : "done")
                : "running") + "]";
    }
}
