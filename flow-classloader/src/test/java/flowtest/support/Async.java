package flowtest.support;

import dev.flow.FlowScheduler;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Test support outside the instrumented scope: values that arrive later, from another thread.
 *
 * <p>A future from {@link #later} or {@link #failLater} completes once someone waits for it — a
 * thread blocked in {@code get}/{@code join} or a callback registered by a suspending flow — and at
 * least 1 ms after it was made; one that nobody waits for completes after {@value #GIVE_UP_MILLIS} ms
 * (a fixture refused before its await). So an await of it really waits, however slow the machine
 * (class loading, a busy CPU, a GC), and a flow awaiting it really suspends. (It completed after 200 ms
 * in any case: flows at load 8 reached an await made 200 ms earlier, which then did not suspend.)
 * Whoever waits for one of these futures later than 200 ms after it was made is served within 5 ms,
 * before that within 200 µs.
 */
public final class Async {

    /** When a future nobody waits for completes all the same (a thread that never waits, for {@link #onceWaiting}). */
    static final long GIVE_UP_MILLIS = 30_000;
    private static final long NEVER = Long.MAX_VALUE;
    private static final long FAST_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    /**
     * Where delayed actions run: reused daemon threads. {@code CompletableFuture}'s own default on JDK 17,
     * where the common pool has one thread (2 cores), starts a thread per action: the overflow category's
     * polls started some 4,000 in two runs, and the whole conformance suite took 26.9 s instead of 16.7 s.
     */
    private static final ExecutorService THREADS_FOR_LATER = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "flowtest-later");
        t.setDaemon(true);
        return t;
    });
    private static final Executor POLL = delayed(200, TimeUnit.MICROSECONDS);
    private static final Executor SLOW_POLL = delayed(5, TimeUnit.MILLISECONDS);
    private static final Executor FIRST = delayed(1, TimeUnit.MILLISECONDS);

    /** Threads fixtures ran on. */
    public static final Set<Thread> THREADS = ConcurrentHashMap.newKeySet();

    /** How long after {@link #runLater} its action runs. */
    static final long RUN_LATER_MILLIS = 100;
    private static final Executor RUN_LATER = delayed(RUN_LATER_MILLIS, TimeUnit.MILLISECONDS);

    private Async() {
    }

    /** An executor that runs each action on another thread, {@code delay} {@code unit}s after it is handed one. */
    public static Executor delayed(long delay, TimeUnit unit) {
        return CompletableFuture.delayedExecutor(delay, unit, THREADS_FOR_LATER);
    }

    /**
     * Runs {@code action} on another thread {@value #RUN_LATER_MILLIS} ms from now: an {@code Executor} for
     * a fixture that hands its tasks to one (a completion service), where {@link #onceWaiting} has no value
     * to carry. Prefer {@link #onceWaiting}: a fixed delay only makes it likely that the caller waits first.
     */
    public static void runLater(Runnable action) {
        RUN_LATER.execute(action);
    }

    /** A future completed with {@code value} once awaited, on another thread. */
    public static <T> CompletableFuture<T> later(T value) {
        CompletableFuture<T> f = new CompletableFuture<>();
        completeWhen(() -> f.getNumberOfDependents() > 0, GIVE_UP_MILLIS, () -> f.complete(value));
        return f;
    }

    /**
     * A future completed with {@code value} on another thread only once someone waits for it, with no
     * fallback: for fixtures whose test checks that the await suspended. Code that never waits for it
     * never sees it complete.
     */
    public static <T> CompletableFuture<T> whenAwaited(T value) {
        CompletableFuture<T> f = new CompletableFuture<>();
        completeWhen(() -> f.getNumberOfDependents() > 0, NEVER, () -> f.complete(value));
        return f;
    }

    /**
     * A future completed with {@code value} on another thread {@code millis} after someone began to wait for it
     * (to within 200 µs, or 5 ms from 200 ms after it was made), with no fallback: for fixtures whose wait
     * must last a known time.
     */
    public static <T> CompletableFuture<T> awaitedFor(T value, long millis) {
        CompletableFuture<T> f = new CompletableFuture<>();
        Executor delay = delayed(millis, TimeUnit.MILLISECONDS);
        completeWhen(() -> f.getNumberOfDependents() > 0, NEVER, () -> delay.execute(() -> f.complete(value)));
        return f;
    }

    /**
     * A future completed with {@code value} on another thread once the thread that made it waits: its
     * flow has suspended (the scheduler resumed a flow since), or, outside a flow or pinned, the thread
     * blocks. For a value handed over through a primitive that registers no callback (a latch, a queue, a
     * semaphore, a fork-join task), so that the fixture's thread waits for it first however slow the
     * machine (a value 1 ms or even 100 ms later was sometimes there first at load 13: no suspension).
     * Completed after {@value #GIVE_UP_MILLIS} ms in any case.
     */
    public static <T> CompletableFuture<T> onceWaiting(T value) {
        CompletableFuture<T> f = new CompletableFuture<>();
        Thread maker = Thread.currentThread();
        FlowScheduler scheduler = FlowScheduler.current();
        long resumed = scheduler == null ? 0 : scheduler.stats().resumed();
        completeWhen(() -> scheduler != null && scheduler.stats().resumed() > resumed || waits(maker), GIVE_UP_MILLIS,
                () -> f.complete(value));
        return f;
    }

    /** A future failed with {@code t} once awaited, on another thread. */
    public static <T> CompletableFuture<T> failLater(Throwable t) {
        CompletableFuture<T> f = new CompletableFuture<>();
        completeWhen(() -> f.getNumberOfDependents() > 0, GIVE_UP_MILLIS, () -> f.completeExceptionally(t));
        return f;
    }

    private static boolean waits(Thread t) {
        Thread.State s = t.getState();
        return s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING || s == Thread.State.BLOCKED;
    }

    /** Runs {@code complete} on another thread once {@code ready}, at least 1 ms from now, or after {@code giveUpMillis}. */
    private static void completeWhen(BooleanSupplier ready, long giveUpMillis, Runnable complete) {
        long giveUp = giveUpMillis == NEVER ? NEVER : TimeUnit.MILLISECONDS.toNanos(giveUpMillis);
        poll(ready, System.nanoTime(), giveUp, complete, FIRST);
    }

    private static void poll(BooleanSupplier ready, long made, long giveUpNanos, Runnable complete, Executor after) {
        after.execute(() -> {
            long age = System.nanoTime() - made;
            if (ready.getAsBoolean() || age > giveUpNanos) {
                complete.run();
            } else {
                poll(ready, made, giveUpNanos, complete, age < FAST_POLL_NANOS ? POLL : SLOW_POLL);
            }
        });
    }

    /** Records the current thread. */
    public static void here() {
        THREADS.add(Thread.currentThread());
    }
}
