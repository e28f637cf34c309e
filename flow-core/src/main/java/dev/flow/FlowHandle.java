package dev.flow;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The completion of one flow: its result or its failure. Thread-safe.
 *
 * @param <T> the flow's result type
 */
public final class FlowHandle<T> {

    private final CompletableFuture<T> result;

    FlowHandle(CompletableFuture<T> result) {
        this.result = result;
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
     */
    public T join() {
        return result.join();
    }

    /**
     * Waits up to {@code timeout} for the flow and returns its result.
     *
     * @throws ExecutionException wrapping the flow's failure
     * @throws TimeoutException if the flow is still running after {@code timeout}
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
        return "FlowHandle[" + (result.isDone() ? (isFailed() ? "failed" : "done") : "running") + "]";
    }
}
