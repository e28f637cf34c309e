package dev.flow.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * The loader's copy of Flow's owned lock ({@code dev.flow.jdk.OwnedSync}, under every substituted {@code ReentrantLock}
 * and decorator monitor) keeps its releases out of the instrumentation when the scope also holds an iterator whose
 * {@code next()} awaits (a dispatch marker on every {@code Iterator.next()} call): a release that the analysis found
 * suspendable was rewritten by the engine with its {@code synchronized} block re-entered on restore, which the JIT
 * refuses ("unbalanced monitors"), so every lock release and decorator call in loaded code ran interpreted
 * (21% of a Commons Net SMTP client's CPU, bench/RESULTS.md).
 */
class FlowLockReleaseTest {

    private static final String SYNC = "dev/flow/jdk/OwnedSync";

    @Test
    void releasingAFlowOwnedLockIsNotSuspendableWhenTheScopeHasAnAwaitingIterator() throws Exception {
        ContinuationClassLoader loader = ContinuationClassLoader.builder()
                .include("flowtest.conformance.dispatch", "flowtest.conformance.locks").build();
        Callable<?> iterating = loader.newInstance(Callable.class, "flowtest.conformance.dispatch.AwaitingHasNext");
        Callable<?> locking = loader.newInstance(Callable.class, "flowtest.conformance.locks.LockHeldAcrossAwait");
        assertEquals("abc no more words", iterating.call(), "the iterator's next() is in scope and runs");
        locking.call();
        assertTrue(loader.isSuspendable("flowtest/conformance/dispatch/AwaitingHasNext$Lookahead", "next",
                "()Ljava/lang/String;"), "the iterator's next() awaits");
        assertTrue(loader.isSuspendable(SYNC, "acquire", "(Z)V"), "an acquisition may wait");
        assertFalse(loader.isSuspendable(SYNC, "release", "(Ljava/lang/Object;Z)Z"), "release");
        assertFalse(loader.isSuspendable(SYNC, "exit", "(Ljava/lang/Object;)V"), "exit");
        assertFalse(loader.isSuspendable(SYNC, "releaseAll", "(Ljava/lang/Object;)I"), "releaseAll");
        assertFalse(loader.isSuspendable(SYNC, "takeFast", "(Ljava/lang/Object;I)Z"), "the uncontended take");
        assertFalse(loader.isSuspendable("dev/flow/jdk/FlowMonitor", "exit", "(Ljava/lang/Object;)V"), "FlowMonitor.exit");
    }
}
