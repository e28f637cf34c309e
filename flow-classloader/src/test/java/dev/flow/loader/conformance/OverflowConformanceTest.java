package dev.flow.loader.conformance;

import java.util.stream.Stream;

/**
 * A {@code StackOverflowError} inside a flow, while its stack is being captured or restored or not:
 * the flow restores fully or fails with the error; later deep calls return right values.
 */
class OverflowConformanceTest extends ConformanceSuite {

    @Override
    protected Stream<Case> cases() {
        return Stream.of(Case.of("flowtest.conformance.overflow.DeepRecursionAfterOverflow").suspends());
    }
}
