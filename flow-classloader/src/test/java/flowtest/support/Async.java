package flowtest.support;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/** Test support outside the instrumented scope: values that arrive later, from another thread. */
public final class Async {

    private static final Executor LATER = CompletableFuture.delayedExecutor(1, TimeUnit.MILLISECONDS);

    /** Threads fixtures ran on. */
    public static final Set<Thread> THREADS = ConcurrentHashMap.newKeySet();

    private Async() {
    }

    /** A future completed with {@code value} shortly, on another thread. */
    public static <T> CompletableFuture<T> later(T value) {
        return CompletableFuture.supplyAsync(() -> value, LATER);
    }

    /** A future failed with {@code t} shortly, on another thread. */
    public static <T> CompletableFuture<T> failLater(Throwable t) {
        CompletableFuture<T> f = new CompletableFuture<>();
        LATER.execute(() -> f.completeExceptionally(t));
        return f;
    }

    /** Records the current thread. */
    public static void here() {
        THREADS.add(Thread.currentThread());
    }
}
