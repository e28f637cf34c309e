package dev.flow.loader.conformance;

import java.util.stream.Stream;

/**
 * String concatenations compiled to {@code invokedynamic makeConcatWithConstants} with {@code long}
 * and {@code double} operands evaluated before an await: loaded by strict and lenient loaders alike,
 * same text.
 */
class ConcatConformanceTest extends ConformanceSuite {

    @Override
    protected Stream<Case> cases() {
        return Stream.of("FourLongsBeforeGet", "DoublesAndLongsBeforeJoin", "WideLocalsBeforeAwaitInMiddle",
                        "ManyWideOperands", "WideOperandsInLoop", "PlainCallAfterWideOperands")
                .map(n -> Case.of("flowtest.conformance.concat." + n).suspends());
    }
}
