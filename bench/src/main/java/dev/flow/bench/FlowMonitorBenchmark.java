package dev.flow.bench;

import dev.flow.FlowScheduler;
import dev.flow.FlowStats;
import dev.flow.SuspendPolicy;
import java.util.concurrent.Callable;
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
 * The cost of an uncontended {@code FlowMonitor} enter/exit pair (the lock of Flow's readers and writers and of
 * the loader-rewritten {@code synchronized (lock)} blocks of in-scope {@code Reader}/{@code Writer} subclasses),
 * in ns per pair, through the loader's instrumented copy of the monitor ({@code dev.flow.bench.flows.MonitorLoop},
 * {@value #BATCH} pairs per invocation):
 *
 * <ul>
 *   <li>{@code thread}: on the JMH thread, outside any flow (the owner is the thread);
 *   <li>{@code flow}: inside a flow on a one-worker scheduler (the owner is the flow); a submit + join is spread
 *       over the batch.
 * </ul>
 *
 * <p>{@code nested}: each pair also takes a second monitor inside the first (two pairs per iteration, as Commons
 * Net's {@code DotTerminatedMessageWriter.write(int)} around {@code FlowBufferedWriter.write(int)}); the score is
 * still per outer pair.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
public class FlowMonitorBenchmark {

    /** Enter/exit pairs per invocation. */
    public static final int BATCH = 10_000;

    @State(Scope.Thread)
    public static class Loop {
        @Param({"false", "true"})
        boolean nested;

        FlowScheduler scheduler;
        Callable<Object> loop;

        @Setup(Level.Trial)
        public void setUp() {
            scheduler = FlowScheduler.builder().workers(1).policy(SuspendPolicy.immediately()).name("bench").build();
            loop = AwaitResumeBenchmark.loader().newInstance(Callable.class, AwaitResumeBenchmark.FLOWS + ".MonitorLoop",
                    BATCH, nested);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws InterruptedException {
            FlowStats st = scheduler.stats();
            AwaitResumeBenchmark.close(scheduler);
            if (!st.isIdle() || st.failed() != 0) {
                throw new IllegalStateException("FlowMonitorBenchmark: scheduler not idle after the run: " + st);
            }
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object thread(Loop s) throws Exception {
        return s.loop.call();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object flow(Loop s) {
        return s.scheduler.submit(s.loop).join();
    }
}
