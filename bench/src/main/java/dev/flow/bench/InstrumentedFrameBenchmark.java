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

    @SuppressWarnings("unchecked")
    @Setup(Level.Trial)
    public void setUp() throws Exception {
        CompletableFuture<Integer> done = CompletableFuture.completedFuture(42);
        switch (loading) {
            case "plain":
                Class<?> c = Class.forName(CHAIN, true, InstrumentedFrameBenchmark.class.getClassLoader());
                chain = (Callable<Object>) c.getConstructors()[0].newInstance(done, depth, CALLS);
                if (chain instanceof FlowTask) {
                    throw new IllegalStateException("plain chain is instrumented");
                }
                break;
            case "instrumented":
                ContinuationClassLoader loader = ContinuationClassLoader.builder().include("dev.flow.bench.flows").build();
                chain = loader.newInstance(Callable.class, CHAIN, done, depth, CALLS);
                if (!(chain instanceof FlowTask) || chain.getClass().getClassLoader() != loader) {
                    throw new IllegalStateException("instrumented chain is not a flow task of the loader: " + chain.getClass());
                }
                break;
            default:
                throw new IllegalArgumentException("loading: " + loading + " (expected: plain or instrumented)");
        }
        scheduler = AwaitResumeBenchmark.scheduler(1);
        Object direct = chain.call();
        Object inFlow = scheduler.submit(chain).join();
        if (!direct.equals(inFlow)) {
            throw new IllegalStateException("results differ: " + direct + " vs " + inFlow);
        }
        if (scheduler.stats().resumed() != 0) {
            throw new IllegalStateException("the chain suspended: " + scheduler.stats());
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
