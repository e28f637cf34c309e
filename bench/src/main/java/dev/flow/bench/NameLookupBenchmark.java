package dev.flow.bench;

import dev.flow.FlowScheduler;
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
 * What a name lookup in loaded code costs a flow, now that it is made on one of Flow's lookup threads: {@code
 * dev.flow.bench.flows.LookupLoop} looks {@code host} up {@value #LOOKUPS} times per invocation (one op = one
 * lookup; {@code localhost}, which the JDK's cache answers after the first, so that what is measured is the hop, not
 * the resolver). {@code thread}: the class loaded through the {@code ContinuationClassLoader} called on the JMH
 * thread (outside a flow the JDK's call runs in place: the baseline); {@code flow}: the same class as a flow of a
 * one-worker scheduler (each lookup a hop to a lookup thread and a resumption).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@State(Scope.Thread)
public class NameLookupBenchmark {

    /** Lookups per invocation. */
    public static final int LOOKUPS = 1_000;

    @Param({"localhost"})
    String host;

    Callable<Object> lookups;
    FlowScheduler scheduler;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        lookups = InstrumentedFrameBenchmark.loaded("dev.flow.bench.flows.LookupLoop", "instrumented", host, LOOKUPS);
        scheduler = AwaitResumeBenchmark.scheduler(1);
        Object direct = lookups.call();
        Object inFlow = scheduler.submit(lookups).join();
        if (!direct.equals(inFlow)) {
            throw new IllegalStateException("results differ: " + direct + " vs " + inFlow);
        }
        if (scheduler.stats().resumed() == 0) {
            throw new IllegalStateException("the flow never suspended: " + scheduler.stats());
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        AwaitResumeBenchmark.close(scheduler);
    }

    @Benchmark
    @OperationsPerInvocation(LOOKUPS)
    public Object thread() throws Exception {
        return lookups.call();
    }

    @Benchmark
    @OperationsPerInvocation(LOOKUPS)
    public Object flow() {
        return scheduler.submit(lookups).join();
    }
}
