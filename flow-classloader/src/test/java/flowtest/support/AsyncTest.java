package flowtest.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The futures the fixtures wait for complete only once waited for, however late: the conformance suites'
 * "suspended" verdicts rely on it.
 */
class AsyncTest {

    @Test
    void laterCompletesOnlyOnceAwaitedHoweverLateTheAwait() throws Exception {
        CompletableFuture<String> f = Async.later("x");
        // A flow descheduled, collecting garbage or loading classes between making the future and awaiting it.
        Thread.sleep(300);
        assertFalse(f.isDone(), "completed before anyone waited for it");
        assertEquals("x", f.get(20, TimeUnit.SECONDS));
    }

    @Test
    void onceWaitingCompletesOnlyOnceItsThreadWaits() throws Exception {
        CompletableFuture<String> f = Async.onceWaiting("x");
        long busyUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
        while (System.nanoTime() < busyUntil) {
            // busy, not waiting: what a flow does between handing over a value and waiting for it
            Thread.onSpinWait();
        }
        assertFalse(f.isDone(), "completed before its thread waited");
        assertEquals("x", f.get(20, TimeUnit.SECONDS));
    }
}
