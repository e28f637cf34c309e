package dev.flow.mina;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waits for conditions with a deadline, re-checking every millisecond. */
final class Conditions {

    static final Duration DEFAULT = Duration.ofSeconds(5);

    private Conditions() {
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
