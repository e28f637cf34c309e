package dev.flow.loader.conformance;

import java.util.stream.Stream;

/**
 * Owner-based locks. A {@code ReentrantLock} or {@code ReentrantReadWriteLock} created by loaded code
 * belongs to the flow: a flow holding one suspends, with mutual exclusion, re-entrancy, conditions and
 * the lock's answers as on threads, also against a plain thread sharing the lock. A lock created
 * outside the loader's scope still pins: a flow that awaits while holding it blocks its worker, and
 * strict mode refuses such an await by the site where the lock was taken.
 */
class LocksConformanceTest extends ConformanceSuite {

    @Override
    protected Stream<Case> cases() {
        String p = "flowtest.conformance.locks.";
        String held = "Lock taken here is still held";
        return Stream.of(
                Case.of(p + "LockHeldAcrossAwait").suspends(),
                Case.of(p + "ReadWriteLockAcrossAwait").suspends(),
                Case.of(p + "TakeWhileHoldingLock").suspends(),
                Case.of(p + "ForeignLockHeldAcrossAwait").pins(held),
                Case.of(p + "TryLockFailureDoesNotPin").suspends(),
                Case.of(p + "ReentrantNesting").suspends(),
                Case.of(p + "UnlockInFinallyAfterException").suspends(),
                Case.of(p + "ConditionAwaitWithLock").suspends(),
                Case.of(p + "ForeignConditionAwait").pins("has no suspendable form"),
                Case.of(p + "LockQueriesAndErrors").suspends(),
                Case.of(p + "ConditionSignalledByAnotherFlow").suspends(),
                Case.of(p + "LockSharedWithPlainThread").suspends(),
                Case.of(p + "ReentrantHoldAcrossSuspensionWithQueuedThread").suspends());
    }
}
