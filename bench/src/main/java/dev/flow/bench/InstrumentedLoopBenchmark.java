package dev.flow.bench;

import dev.flow.FlowScheduler;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A loop over a buffer with a suspendable call inside ({@code dev.flow.bench.flows.ScanLoop}), in ns per byte: the
 * call at every 64th byte or once per 4,096-byte buffer ({@code every} 0), the class loaded {@code plain} or {@code
 * instrumented}, run inside a flow on a one-worker scheduler (one submit and join per {@value #ROUNDS} buffers).
 * What the loop's shape costs the JIT once instrumented: the engine's restore code entering the loop in its
 * middle, or (with {@code ReducibleLoops}) through its header.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@State(Scope.Thread)
public class InstrumentedLoopBenchmark {

    /** Buffers scanned per invocation. */
    public static final int ROUNDS = 250;
    private static final int BYTES = ROUNDS * 4096;

    static final String SCAN = "dev.flow.bench.flows.ScanLoop";

    @Param({"64", "0"})
    int every;

    @Param({"plain", "instrumented"})
    String loading;

    Callable<Object> scan;
    FlowScheduler scheduler;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        scan = InstrumentedFrameBenchmark.loaded(SCAN, loading, CompletableFuture.completedFuture(42), every, ROUNDS);
        scheduler = AwaitResumeBenchmark.scheduler(1);
        InstrumentedFrameBenchmark.checkSameInAFlowWithoutSuspending(scan, scheduler);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        AwaitResumeBenchmark.close(scheduler);
    }

    @Benchmark
    @OperationsPerInvocation(BYTES)
    public Object insideFlow() {
        return scheduler.submit(scan).join();
    }
}
