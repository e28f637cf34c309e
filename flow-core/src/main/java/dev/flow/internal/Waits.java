package dev.flow.internal;

import dev.flow.spi.Awaitable;
import dev.flow.spi.AwaitableAdapter;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Uniform view of everything a flow can wait for: {@link Awaitable}, {@link CompletableFuture},
 * {@link CompletionStage}, {@link Future} and types with an {@link AwaitableAdapter}.
 *
 * <p>Thread-safe and stateless apart from the adapter list loaded once. {@link #isDone(Object)}
 * does not allocate.
 */
public final class Waits {

    private static final AwaitableAdapter[] ADAPTERS = loadAdapters();

    private Waits() {
    }

    private static AwaitableAdapter[] loadAdapters() {
        List<AwaitableAdapter> list = new ArrayList<>();
        for (AwaitableAdapter a : ServiceLoader.load(AwaitableAdapter.class, Waits.class.getClassLoader())) {
            list.add(a);
        }
        return list.toArray(new AwaitableAdapter[0]);
    }

    /** Returns whether {@code w} has completed. */
    public static boolean isDone(Object w) {
        if (w instanceof CompletableFuture) {
            return ((CompletableFuture<?>) w).isDone();
        }
        if (w instanceof Awaitable) {
            return ((Awaitable) w).isDone();
        }
        if (w instanceof Future) {
            return ((Future<?>) w).isDone();
        }
        if (w instanceof CompletionStage) {
            return ((CompletionStage<?>) w).toCompletableFuture().isDone();
        }
        return adapter(w).isDone(w);
    }

    /**
     * Runs {@code action} once when {@code w} completes; at once if it has. An action that is also a
     * {@code BiConsumer} is handed to {@code CompletableFuture.whenComplete} as it is, without a
     * wrapping lambda.
     */
    @SuppressWarnings("unchecked")
    public static void whenDone(Object w, Runnable action) {
        if (w instanceof CompletableFuture) {
            if (action instanceof java.util.function.BiConsumer) {
                ((CompletableFuture<Object>) w).whenComplete((java.util.function.BiConsumer<Object, Throwable>) action);
            } else {
                ((CompletableFuture<?>) w).whenComplete((r, t) -> action.run());
            }
        } else if (w instanceof Awaitable) {
            ((Awaitable) w).whenDone(action);
        } else if (w instanceof CompletionStage) {
            ((CompletionStage<?>) w).whenComplete((r, t) -> action.run());
        } else if (w instanceof Future) {
            FuturePoller.poll((Future<?>) w, action);
        } else {
            adapter(w).whenDone(w, action);
        }
    }

    /**
     * Blocks the calling thread until {@code w} completes or {@code timeoutNanos} pass ({@code 0}
     * waits forever). An interrupt ends the wait early and stays set on the thread.
     *
     * @return whether {@code w} is done
     */
    public static boolean block(Object w, long timeoutNanos) {
        try {
            return blockInterruptibly(w, timeoutNanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return isDone(w);
        }
    }

    /**
     * Blocks the calling thread until {@code w} completes or {@code timeoutNanos} pass ({@code 0}
     * waits forever), like an uninterruptible wait: an interrupt does not end it and is set again on
     * the thread afterwards.
     *
     * @return whether {@code w} is done
     */
    public static boolean blockUninterruptibly(Object w, long timeoutNanos) {
        boolean interrupted = Thread.interrupted();
        long deadline = System.nanoTime() + timeoutNanos;
        try {
            for (;;) {
                long left = timeoutNanos == 0 ? 0 : deadline - System.nanoTime();
                if (timeoutNanos != 0 && left <= 0) {
                    return isDone(w);
                }
                try {
                    return blockInterruptibly(w, left);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Blocks the calling thread until {@code w} completes or {@code timeoutNanos} pass ({@code 0}
     * waits forever).
     *
     * @return whether {@code w} is done
     * @throws InterruptedException if the thread is interrupted before or while it waits (the
     *     interrupt status is cleared)
     */
    public static boolean blockInterruptibly(Object w, long timeoutNanos) throws InterruptedException {
        if (isDone(w)) {
            return true;
        }
        // A flow blocking here (a pinned wait) first sends what its transports deferred.
        FlowState f = FlowState.current();
        if (f != null) {
            f.sendDeferred();
            if (f.isUninstrumented()) {
                // A task that cannot suspend: every wait of it is pinned (an instrumented flow's pinned
                // waits hand off in Pins.onPinnedAwait; its waits under SuspendPolicy.never() do not).
                SchedulerCore.beforePinnedWait();
            }
        }
        try {
            return blockUntilDone(w, timeoutNanos);
        } finally {
            // A pinned flow's wait, reported before it blocked, ends here.
            FlowEvents.pinnedWaitEnds();
        }
    }

    private static boolean blockUntilDone(Object w, long timeoutNanos) throws InterruptedException {
        if (w instanceof Future) {
            Future<?> f = (Future<?>) w;
            try {
                if (timeoutNanos > 0) {
                    f.get(timeoutNanos, TimeUnit.NANOSECONDS);
                } else {
                    f.get();
                }
            } catch (java.util.concurrent.ExecutionException
                     | java.util.concurrent.CancellationException
                     | java.util.concurrent.TimeoutException e) {
                // the caller reads the outcome from the future itself
            }
            return f.isDone();
        }
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        CountDownLatch latch = new CountDownLatch(1);
        whenDone(w, latch::countDown);
        if (timeoutNanos > 0) {
            latch.await(timeoutNanos, TimeUnit.NANOSECONDS);
        } else {
            latch.await();
        }
        return isDone(w);
    }

    /**
     * Runs {@code action} once when {@code w} completes, registered so that it can be withdrawn with
     * {@link #withdraw} (for timed waits).
     *
     * @return what to pass to {@link #withdraw}, or {@code null} if nothing can be withdrawn
     */
    static Object whenDoneWithdrawable(Object w, Runnable action) {
        if (w instanceof CompletableFuture) {
            return CompletionHub.register((CompletableFuture<?>) w, action);
        }
        whenDone(w, action);
        return null;
    }

    /** Withdraws {@code action} registered with {@link #whenDoneWithdrawable}. */
    static void withdraw(Object registration, Runnable action) {
        if (registration instanceof CompletionHub) {
            ((CompletionHub) registration).remove(action);
        }
    }

    /**
     * Returns the value of a completed {@link Future} like {@code CompletableFuture.join()}: a
     * failure is rethrown unchecked, wrapped in {@link java.util.concurrent.CompletionException}
     * unless it already is unchecked.
     */
    public static Object getDone(Future<?> f) {
        boolean interrupted = false;
        try {
            for (;;) {
                try {
                    return f.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (java.util.concurrent.ExecutionException e) {
                    Throwable c = e.getCause();
                    if (c instanceof RuntimeException) {
                        throw (RuntimeException) c;
                    }
                    if (c instanceof Error) {
                        throw (Error) c;
                    }
                    throw new java.util.concurrent.CompletionException(c);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static AwaitableAdapter adapter(Object w) {
        if (w == null) {
            throw new NullPointerException("awaited object is null");
        }
        for (AwaitableAdapter a : ADAPTERS) {
            if (a.type().isInstance(w)) {
                return a;
            }
        }
        throw new IllegalArgumentException("cannot await " + w.getClass().getName()
                + " (expected: a CompletionStage, a Future, a dev.flow.spi.Awaitable, or a type with an "
                + "AwaitableAdapter service)");
    }
}
