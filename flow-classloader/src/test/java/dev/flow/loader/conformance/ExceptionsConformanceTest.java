package dev.flow.loader.conformance;

import java.util.stream.Stream;

/**
 * Exception texts at suspension points: a timed-out {@code get} throws the JDK's own {@code
 * TimeoutException} (its message differs between future types and JDK versions), and a null awaited
 * object gives the JVM's helpful {@code NullPointerException} message.
 */
class ExceptionsConformanceTest extends ConformanceSuite {

    @Override
    protected Stream<Case> cases() {
        String p = "flowtest.conformance.exceptions.";
        return Stream.of(
                Case.of(p + "CompletableFutureGetTimesOut").suspends(),
                Case.of(p + "FutureTaskGetTimesOut").suspends(),
                Case.of(p + "NullFutureGet"),
                Case.of(p + "NullFieldJoin"),
                Case.of(p + "NullFutureTimedGet"),
                Case.of(p + "NullBlockingReceivers"));
    }
}
