package dev.flow.bench;

import dev.flow.FlowScheduler;
import dev.flow.internal.FlowTask;
import dev.flow.loader.ContinuationClassLoader;
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
 * The cost of instrumented frames that do not suspend. {@code dev.flow.bench.flows.FrameChain}
 * runs a chain of {@code depth} (1 or 10) small methods whose bottom joins an already-completed
 * future (the await fast path), {@value #CALLS} times per invocation; one op = one chain call.
 * The same class is loaded {@code plain} (normally) or {@code instrumented} (through the {@code
 * ContinuationClassLoader}) and called {@code outsideFlow} (directly on the JMH thread) or {@code
 * insideFlow} (submitted to a one-worker scheduler and joined: one submit + join per {@value
 * #CALLS} calls). ns per frame = (instrumented - plain) / depth.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@State(Scope.Thread)
public class InstrumentedFrameBenchmark {

    /** Chain calls per invocation. */
    public static final int CALLS = 1_000_000;

    static final String CHAIN = "dev.flow.bench.flows.FrameChain";

    @Param({"1", "10"})
    int depth;

    @Param({"plain", "instrumented"})
    String loading;

    Callable<Object> chain;
    FlowScheduler scheduler;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        chain = loaded(CHAIN, loading, CompletableFuture.completedFuture(42), depth, CALLS);
        scheduler = AwaitResumeBenchmark.scheduler(1);
        checkSameInAFlowWithoutSuspending(chain, scheduler);
    }

    /**
     * A new {@code className}({@code args}), loaded {@code plain} (normally) or {@code instrumented} (through a
     * {@code ContinuationClassLoader} over the package of the benchmarks' flows).
     */
    @SuppressWarnings("unchecked")
    static Callable<Object> loaded(String className, String loading, Object... args) throws Exception {
        switch (loading) {
            case "plain":
                Class<?> c = Class.forName(className, true, InstrumentedFrameBenchmark.class.getClassLoader());
                Callable<Object> plain = (Callable<Object>) c.getConstructors()[0].newInstance(args);
                if (plain instanceof FlowTask) {
                    throw new IllegalStateException("plain " + className + " is instrumented");
                }
                return plain;
            case "instrumented":
                ContinuationClassLoader loader = ContinuationClassLoader.builder().include("dev.flow.bench.flows").build();
                Callable<Object> instrumented = loader.newInstance(Callable.class, className, args);
                if (!(instrumented instanceof FlowTask) || instrumented.getClass().getClassLoader() != loader) {
                    throw new IllegalStateException("instrumented " + className + " is not a flow task of the loader: "
                            + instrumented.getClass());
                }
                return instrumented;
            default:
                throw new IllegalArgumentException("loading: " + loading + " (expected: plain or instrumented)");
        }
    }

    /** Checks that {@code task} returns the same called directly and in a flow of {@code scheduler}, which never suspends. */
    static void checkSameInAFlowWithoutSuspending(Callable<Object> task, FlowScheduler scheduler) throws Exception {
        Object direct = task.call();
        Object inFlow = scheduler.submit(task).join();
        if (!direct.equals(inFlow)) {
            throw new IllegalStateException("results differ: " + direct + " vs " + inFlow);
        }
        if (scheduler.stats().resumed() != 0) {
            throw new IllegalStateException("the flow suspended: " + scheduler.stats());
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        AwaitResumeBenchmark.close(scheduler);
    }

    @Benchmark
    @OperationsPerInvocation(CALLS)
    public Object outsideFlow() throws Exception {
        return chain.call();
    }

    @Benchmark
    @OperationsPerInvocation(CALLS)
    public Object insideFlow() {
        return scheduler.submit(chain).join();
    }
}
