package dev.flow.loader.conformance;

import java.util.stream.Stream;

/**
 * {@code super.m()} where {@code m} is a JDK method that is a suspension point as a virtual call
 * ({@code read}, {@code write}, {@code flush}, {@code get}, {@code take}...): the call keeps its
 * non-virtual meaning, on a plain thread and in a flow.
 */
class SuperCallsConformanceTest extends ConformanceSuite {

    private static final String BLOCKING = "the call blocks its thread and has no suspendable form";

    @Override
    protected Stream<Case> cases() {
        String p = "flowtest.conformance.supercalls.";
        return Stream.of(
                Case.of(p + "BufferedOutputFlushCallsSuper").suspends(),
                Case.of(p + "OutputStreamWriteArrayCallsSuper").suspends(),
                Case.of(p + "FilterOutputCallsSuper").suspends(),
                Case.of(p + "InputStreamsCallSuper").suspends(),
                Case.of(p + "ReaderAndWriterCallSuper").suspends(),
                Case.of(p + "FuturesAndQueuesCallSuper").pins(BLOCKING));
    }
}
