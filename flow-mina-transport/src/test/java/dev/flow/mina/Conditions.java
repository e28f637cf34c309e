package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waits for conditions with a deadline, re-checking every millisecond. */
final class Conditions {

    /**
     * For what must happen: long enough for a loaded machine (two JVMs on two cores, a GC or a
     * descheduling can take seconds); it only delays a failure.
     */
    static final Duration DEFAULT = Duration.ofSeconds(30);

    private Conditions() {
    }

    /**
     * Runs {@code call} on a new daemon thread and returns once that thread is blocked waiting (or
     * done), so that what the test does next happens while the call waits.
     */
    static <T> Future<T> whileBlocked(Callable<T> call) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                result.complete(call.call());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, "test-blocked-call");
        t.setDaemon(true);
        t.start();
        await("the call to block", () -> result.isDone()
                || t.getState() == Thread.State.WAITING || t.getState() == Thread.State.TIMED_WAITING,
                () -> "(thread state " + t.getState() + ")");
        if (result.isDone()) {
            fail("expected the call to wait, but it ended: " + result);
        }
        return result;
    }

    static void await(String what, BooleanSupplier condition) {
        await(what, condition, DEFAULT, () -> "");
    }

    static void await(String what, BooleanSupplier condition, Supplier<String> state) {
        await(what, condition, DEFAULT, state);
    }

    static void await(String what, BooleanSupplier condition, Duration timeout, Supplier<String> state) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline >= 0) {
                fail("timed out after " + timeout.toMillis() + " ms waiting for " + what + " " + state.get());
            }
            LockSupport.parkNanos(1_000_000);
        }
    }
}
