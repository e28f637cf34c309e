package flowtest.support;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Test support outside the instrumented scope: values that arrive later, from another thread.
 *
 * <p>A future from {@link #later} or {@link #failLater} completes once someone waits for it — a
 * thread blocked in {@code get}/{@code join} or a callback registered by a suspending flow — and at
 * least 1 ms after it was made, or after {@value #FALLBACK_MILLIS} ms in any case. So an await of it
 * really waits, however slow the machine (class loading, a busy CPU), and a flow awaiting it really
 * suspends, while code that never waits for it still sees it complete.
 */
public final class Async {

    static final long FALLBACK_MILLIS = 200;
    /** The creation time that means: never complete unless awaited. */
    private static final long NO_FALLBACK = Long.MAX_VALUE;
    private static final Executor POLL = CompletableFuture.delayedExecutor(200, TimeUnit.MICROSECONDS);
    private static final Executor FIRST = CompletableFuture.delayedExecutor(1, TimeUnit.MILLISECONDS);

    /** Threads fixtures ran on. */
    public static final Set<Thread> THREADS = ConcurrentHashMap.newKeySet();

    /** How long after {@link #runLater} its action runs. */
    static final long RUN_LATER_MILLIS = 100;
    private static final Executor RUN_LATER = CompletableFuture.delayedExecutor(RUN_LATER_MILLIS, TimeUnit.MILLISECONDS);

    private Async() {
    }

    /**
     * Runs {@code action} on another thread {@value #RUN_LATER_MILLIS} ms from now: for waits nobody can
     * see begin (a queue's {@code take}, a latch, a semaphore), long enough for the caller to reach its
     * wait on a loaded machine, where a thread descheduled for a few ms made a value that came 1 or 2 ms
     * later arrive first (the wait then "did not suspend"). A future's callback ({@code later(v).thenAccept})
     * does not help there: the callback counts as a waiter, so the future completes at once.
     */
    public static void runLater(Runnable action) {
        RUN_LATER.execute(action);
    }

    /** A future completed with {@code value} once awaited, on another thread. */
    public static <T> CompletableFuture<T> later(T value) {
        CompletableFuture<T> f = new CompletableFuture<>();
        completeWhenAwaited(f, System.nanoTime(), () -> f.complete(value), FIRST);
        return f;
    }

    /**
     * A future completed with {@code value} on another thread only once someone waits for it, with no
     * fallback: for fixtures whose test checks that the await suspended, which a slow first run (class
     * loading and instrumentation on a busy machine) could otherwise outlast. Code that never waits for
     * it never sees it complete.
     */
    public static <T> CompletableFuture<T> whenAwaited(T value) {
        CompletableFuture<T> f = new CompletableFuture<>();
        completeWhenAwaited(f, NO_FALLBACK, () -> f.complete(value), FIRST);
        return f;
    }

    /**
     * A future completed with {@code value} on another thread {@code millis} after someone began to wait for it
     * (to within 200 µs), with no fallback: for fixtures whose wait must last a known time.
     */
    public static <T> CompletableFuture<T> awaitedFor(T value, long millis) {
        CompletableFuture<T> f = new CompletableFuture<>();
        Executor delay = CompletableFuture.delayedExecutor(millis, TimeUnit.MILLISECONDS);
        completeWhenAwaited(f, NO_FALLBACK, () -> delay.execute(() -> f.complete(value)), FIRST);
        return f;
    }

    /** A future failed with {@code t} once awaited, on another thread. */
    public static <T> CompletableFuture<T> failLater(Throwable t) {
        CompletableFuture<T> f = new CompletableFuture<>();
        completeWhenAwaited(f, System.nanoTime(), () -> f.completeExceptionally(t), FIRST);
        return f;
    }

    private static void completeWhenAwaited(CompletableFuture<?> f, long made, Runnable complete, Executor after) {
        after.execute(() -> {
            if (f.getNumberOfDependents() > 0
                    || made != NO_FALLBACK && System.nanoTime() - made > TimeUnit.MILLISECONDS.toNanos(FALLBACK_MILLIS)) {
                complete.run();
            } else {
                completeWhenAwaited(f, made, complete, POLL);
            }
        });
    }

    /** Records the current thread. */
    public static void here() {
        THREADS.add(Thread.currentThread());
    }
}
