package dev.flow.samples.hostile;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waiting on conditions with deadlines: the hostile tests never sleep for a fixed time to let something happen. */
final class Conditions {

    private Conditions() {
    }

    /** Waits up to {@code timeout} for {@code condition}; returns whether it became true. */
    static boolean await(BooleanSupplier condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline >= 0) {
                return condition.getAsBoolean();
            }
            pause();
        }
        return true;
    }

    /** A short pause between two checks of a condition; keeps the interrupt. */
    static void pause() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a condition", e);
        }
    }
}
