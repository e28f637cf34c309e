package dev.flow.loader.conformance;

import java.util.stream.Stream;

/** Interrupt status and InterruptedException at suspension points, as on a plain thread. */
class InterruptsConformanceTest extends ConformanceSuite {

    @Override
    protected Stream<Case> cases() {
        String p = "flowtest.conformance.interrupts.";
        return Stream.of(
                Case.of(p + "SelfInterruptThenSleep"),
                Case.of(p + "SelfInterruptThenSleepZero"),
                Case.of(p + "SelfInterruptThenGet"),
                Case.of(p + "SelfInterruptThenTimedGet"),
                Case.of(p + "SelfInterruptThenFutureTaskGet"),
                Case.of(p + "SelfInterruptThenGetDone"),
                Case.of(p + "SelfInterruptThenJoin"),
                Case.of(p + "FlagSurvivesAcrossAwait"),
                Case.of(p + "InterruptedClearsAfterCatching").suspends());
    }
}
