package dev.flow.spi;

/**
 * Teaches {@code Flow.await} and the suspension points to wait on a foreign future type, such as a
 * MINA {@code IoFuture}.
 *
 * <p>Adapters are found with {@link java.util.ServiceLoader} and must be stateless and thread-safe.
 * Their methods are on the await path: they must not allocate when the future is already done.
 */
public interface AwaitableAdapter {

    /** The future type this adapter handles; matched with {@link Class#isInstance(Object)}. */
    Class<?> type();

    /** Returns whether {@code future} (an instance of {@link #type()}) has completed. */
    boolean isDone(Object future);

    /** Runs {@code action} once when {@code future} completes; at once if it already has. */
    void whenDone(Object future, Runnable action);
}
