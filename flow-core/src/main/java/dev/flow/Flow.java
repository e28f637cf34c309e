package dev.flow;

import dev.flow.internal.FlowState;
import dev.flow.internal.Waits;
import dev.flow.spi.Awaitable;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The one place where waiting happens.
 *
 * <p>In code loaded through the {@code ContinuationClassLoader} these calls are suspension points:
 * inside a flow they apply the scheduler's {@link SuspendPolicy} and suspend if needed. In code
 * loaded normally, or outside a flow, they block the calling thread. An await on something already
 * complete returns at once, without suspending or allocating.
 */
public final class Flow {

    private Flow() {
    }

    /**
     * Waits for {@code stage} and returns its value.
     *
     * @throws java.util.concurrent.CompletionException if the stage failed (like {@link
     *     CompletableFuture#join()})
     */
    public static <T> T await(CompletionStage<T> stage) {
        Objects.requireNonNull(stage, "stage");
        CompletableFuture<T> f = stage.toCompletableFuture();
        Waits.block(f, 0);
        return f.join();
    }

    /**
     * Waits for {@code future} and returns its value (this overload resolves the ambiguity between
     * the {@link CompletionStage} and {@link Future} forms).
     *
     * @throws java.util.concurrent.CompletionException if the future failed
     */
    public static <T> T await(CompletableFuture<T> future) {
        Objects.requireNonNull(future, "future");
        Waits.block(future, 0);
        return future.join();
    }

    /**
     * Waits for {@code future} and returns its value.
     *
     * @throws java.util.concurrent.CompletionException if the future failed
     */
    @SuppressWarnings("unchecked")
    public static <T> T await(Future<T> future) {
        Objects.requireNonNull(future, "future");
        Waits.block(future, 0);
        return (T) Waits.getDone(future);
    }

    /** Waits until {@code awaitable} completes. */
    public static void await(Awaitable awaitable) {
        Objects.requireNonNull(awaitable, "awaitable");
        Waits.block(awaitable, 0);
    }

    /**
     * Pauses for {@code duration}: a timer wakes the flow up, no thread is held.
     *
     * @throws InterruptedException if the blocked thread is interrupted (outside a flow)
     */
    public static void sleep(Duration duration) throws InterruptedException {
        Objects.requireNonNull(duration, "duration");
        if (!duration.isNegative() && !duration.isZero()) {
            TimeUnit.NANOSECONDS.sleep(duration.toNanos());
        }
    }

    /** Returns whether the calling thread is running a flow. */
    public static boolean inFlow() {
        return FlowState.current() != null;
    }
}
