package dev.flow.loader.conformance;

import java.util.stream.Stream;

/** Class initialisation relative to argument evaluation in {@code new T(args)}. */
class InitConformanceTest extends ConformanceSuite {

    @Override
    protected Stream<Case> cases() {
        return Stream.of(Case.of("flowtest.conformance.init.FailingInitializerBeforeArguments").suspends());
    }
}
