package dev.flow.loader.conformance;

import java.util.stream.Stream;

/**
 * JDK decorators around a transport's stream views: the view is then called through an
 * uninstrumented frame, a pinned site that a strict loader refuses by site (whether or not the call
 * would wait), naming the method as written ({@code call}, not the loader's {@code call$flow}).
 */
class DecoratorsConformanceTest extends ConformanceSuite {

    @Override
    protected Stream<Case> cases() {
        String p = "flowtest.conformance.decorators.";
        return Stream.of(
                Case.of(p + "DataInputOverView").pins("DataInputOverView.call()Ljava/lang/Object; (line 15)"),
                Case.of(p + "DataOutputOverView").pins("DataOutputOverView.call()Ljava/lang/Object; (line 16)"),
                Case.of(p + "ReaderOverView").pins("ReaderOverView.call()Ljava/lang/Object; (line 16)"),
                Case.of(p + "TransferToFromView").pins("TransferToFromView.call()Ljava/lang/Object; (line 16)"),
                Case.of(p + "ViewCalledDirectly").suspends());
    }
}
