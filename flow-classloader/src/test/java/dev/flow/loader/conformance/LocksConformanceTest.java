package dev.flow.loader.conformance;

import java.util.stream.Stream;

/**
 * Owner-based locks: a flow that awaits while holding a {@code java.util.concurrent.locks.Lock} pins
 * (blocks its worker, as inside {@code synchronized}), so mutual exclusion holds and every unlock runs
 * on the locking thread; strict mode refuses such an await by the site where the lock was taken.
 */
class LocksConformanceTest extends ConformanceSuite {

    @Override
    protected Stream<Case> cases() {
        String p = "flowtest.conformance.locks.";
        String held = "Lock taken here is still held";
        return Stream.of(
                Case.of(p + "LockHeldAcrossAwait").pins(held),
                Case.of(p + "ReadWriteLockAcrossAwait").pins(held),
                Case.of(p + "TakeWhileHoldingLock").pins(held),
                Case.of(p + "TryLockFailureDoesNotPin").suspends(),
                Case.of(p + "ReentrantNesting").suspends(),
                Case.of(p + "UnlockInFinallyAfterException").suspends(),
                Case.of(p + "ConditionAwaitWithLock").pins("has no suspendable form"));
    }
}
