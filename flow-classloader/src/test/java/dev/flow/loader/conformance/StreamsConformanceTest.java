package dev.flow.loader.conformance;

import java.util.stream.Stream;

/** {@code java.io} streams in loaded code: only a transport's own views may suspend or pin. */
class StreamsConformanceTest extends ConformanceSuite {

    @Override
    protected Stream<Case> cases() {
        return Stream.of(Case.of("flowtest.conformance.streams.InMemoryStreamsInsideMonitor").suspends());
    }
}
