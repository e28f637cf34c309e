package dev.flow.loader.conformance;

import java.util.stream.Stream;

/** The harness itself on plain patterns: a value, an exception with cause and suppressed, suspension. */
class BasicsConformanceTest extends ConformanceSuite {

    @Override
    protected Stream<Case> cases() {
        String p = "flowtest.conformance.basics.";
        return Stream.of(
                Case.of(p + "NoSuspension"),
                Case.of(p + "AwaitInLoop").suspends(),
                Case.of(p + "FailureWithCause").suspends());
    }
}
