package dev.flow.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.apache.commons.javaflow.api.Continuation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs every benchmark's set-up (which checks that the measured thing really happens: suspensions
 * counted, results equal, nothing left running) and a few operations, so the benchmarks do not rot.
 * Seconds, not a measurement.
 */
@Timeout(60)
class BenchSmokeTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 10})
    void flowYieldSuspendsOncePerCycle(int depth) throws Exception {
        AwaitResumeBenchmark b = new AwaitResumeBenchmark();
        AwaitResumeBenchmark.FlowYield s = new AwaitResumeBenchmark.FlowYield();
        s.depth = depth;
        s.workers = 2;
        s.setUp();
        try {
            long before = s.scheduler.stats().resumed();
            assertNotNull(b.flowYield(s));
            assertEquals(AwaitResumeBenchmark.BATCH, s.scheduler.stats().resumed() - before);
        } finally {
            s.tearDown();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 10})
    void flowPingPongResumesEveryRound(int depth) throws Exception {
        AwaitResumeBenchmark b = new AwaitResumeBenchmark();
        AwaitResumeBenchmark.FlowPingPong s = new AwaitResumeBenchmark.FlowPingPong();
        s.depth = depth;
        s.workers = 1;
        s.setUp();
        for (int i = 0; i < 1000; i++) {
            b.flowPingPong(s);
        }
        s.tearDown(); // checks rounds == resumptions and an idle scheduler
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 10})
    void rawJavaflowSuspends(int depth) {
        AwaitResumeBenchmark b = new AwaitResumeBenchmark();
        AwaitResumeBenchmark.RawYield s = new AwaitResumeBenchmark.RawYield();
        s.depth = depth;
        s.setUp();
        for (int i = 0; i < 1000; i++) {
            Continuation c = b.rawJavaflow(s);
            assertNotNull(c);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"plain", "instrumented"})
    void frameChainRunsInAndOutsideFlows(String loading) throws Exception {
        for (int depth : new int[] {1, 10}) {
            InstrumentedFrameBenchmark b = new InstrumentedFrameBenchmark();
            b.depth = depth;
            b.loading = loading;
            b.setUp(); // checks equal results and no suspension
            try {
                assertEquals(b.outsideFlow(), b.insideFlow());
            } finally {
                b.tearDown();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"plain", "instrumented"})
    void scanLoopGivesTheSameSumInAFlowAsCalledDirectly(String loading) throws Exception {
        for (int every : new int[] {64, 0}) {
            InstrumentedLoopBenchmark b = new InstrumentedLoopBenchmark();
            b.every = every;
            b.loading = loading;
            b.setUp(); // checks equal results and no suspension
            try {
                assertEquals(b.scan.call(), b.insideFlow());
            } finally {
                b.tearDown();
            }
        }
    }

    @Test
    void virtualThreadReferences() throws Exception {
        assumeTrue(VirtualThreads.available(), () -> "skipped: " + VirtualThreads.reason());
        AwaitResumeBenchmark b = new AwaitResumeBenchmark();
        for (int depth : new int[] {1, 3, 10}) {
            AwaitResumeBenchmark.VtYield y = new AwaitResumeBenchmark.VtYield();
            y.depth = depth;
            y.setUp();
            b.vtYield(y);
            AwaitResumeBenchmark.VtParkUnpark p = new AwaitResumeBenchmark.VtParkUnpark();
            p.depth = depth;
            p.setUp();
            for (int i = 0; i < 1000; i++) {
                b.vtPingPong(p);
            }
            p.tearDown();
        }
    }
}
