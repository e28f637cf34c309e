package dev.flow.spi;

/**
 * Something a flow can wait for: an operation that completes once.
 *
 * <p>Implementations must be thread-safe: {@link #whenDone(Runnable)} may be called from any thread
 * and the action may run on any thread, including the completing one.
 */
public interface Awaitable {

    /** Returns whether the operation has completed (successfully or not). */
    boolean isDone();

    /**
     * Runs {@code action} once when the operation completes; at once, on the calling thread, if it
     * already has. The action must be cheap and must not block.
     */
    void whenDone(Runnable action);
}
