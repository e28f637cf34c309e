package dev.flow.bench;

import dev.flow.FlowHandle;
import dev.flow.FlowScheduler;
import dev.flow.FlowStats;
import dev.flow.SuspendPolicy;
import dev.flow.bench.support.Baton;
import dev.flow.bench.support.Reply;
import dev.flow.bench.support.Yield;
import dev.flow.bench.vt.VtPingPong;
import dev.flow.bench.vt.VtYieldLoop;
import dev.flow.loader.ContinuationClassLoader;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.commons.javaflow.api.Continuation;
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
 * The cost of one await &rarr; resume cycle, by stack depth (1, 3, 10), in ns per cycle.
 *
 * <ul>
 *   <li>{@code flowYield}: a flow loaded through the {@code ContinuationClassLoader} awaits {@link
 *       Yield} {@value #BATCH} times; each await suspends and the same worker re-queues and resumes
 *       the flow at once: capture + restore + one trip through the ready queue. One invocation
 *       submits the flow and joins it, so a submit + join is spread over {@value #BATCH} cycles.
 *   <li>{@code flowPingPong}: the JMH thread completes a {@link Baton} the flow awaits and parks
 *       until the flow answers through a {@link Reply}: a cross-thread round trip. Before pinging,
 *       the JMH thread spins until the flow has really suspended again (its wake-up callback is
 *       registered), so every round is a suspend/resume, never the already-done fast path.
 *   <li>{@code rawJavaflow}: {@code Continuation.resume()} of a loop calling {@code
 *       Continuation.suspend()} on classes instrumented by Tascalate JavaFlow's own transformer:
 *       the bare engine, on the JMH thread, no scheduler.
 *   <li>{@code vtYield}: a virtual thread calls {@code Thread.yield()} {@value #BATCH} times (JDK
 *       21+).
 *   <li>{@code vtPingPong}: {@code LockSupport.unpark}/{@code park} round trip between the JMH
 *       thread and a virtual thread (JDK 21+), same {@link Reply} on the JMH side as {@code
 *       flowPingPong}; before pinging, the JMH thread spins until the virtual thread is parked
 *       ({@code getState() == WAITING}: unmounted).
 * </ul>
 *
 * <p>Depth is the number of frames of the benchmark's own loop class on the stack at the
 * suspension, the entry method ({@code call()}/{@code run()}) included. A flow also has Flow's own
 * instrumented frames underneath and on top (FlowRoot, Awaits).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class AwaitResumeBenchmark {

    /** Await cycles per invocation of the batch benchmarks (flowYield, vtYield). */
    public static final int BATCH = 10_000;
    /** Cycles of the raw loop before it is restarted. */
    static final int RAW_CYCLES = 1_000_000;

    static final String FLOWS = "dev.flow.bench.flows";

    static FlowScheduler scheduler(int workers) {
        return FlowScheduler.builder().workers(workers).policy(SuspendPolicy.immediately()).name("bench").build();
    }

    static ContinuationClassLoader loader() {
        return ContinuationClassLoader.builder().include(FLOWS).build();
    }

    static void close(FlowScheduler s) throws InterruptedException {
        if (s != null) {
            s.close();
            if (!s.awaitTermination(Duration.ofSeconds(10))) {
                throw new IllegalStateException("scheduler did not stop: " + s.stats());
            }
        }
    }

    // ------------------------------------------------------------------ (a) flow yield

    @State(Scope.Thread)
    public static class FlowYield {
        @Param({"1", "3", "10"})
        int depth;
        @Param({"1", "2"})
        int workers;

        FlowScheduler scheduler;
        Callable<Object> flow;

        @Setup(Level.Trial)
        public void setUp() {
            scheduler = scheduler(workers);
            flow = loader().newInstance(Callable.class, FLOWS + ".YieldLoop", Yield.INSTANCE, depth, BATCH);
            long before = scheduler.stats().resumed();
            scheduler.submit(flow).join();
            long cycles = scheduler.stats().resumed() - before;
            if (cycles != BATCH) {
                throw new IllegalStateException("flowYield: " + cycles + " suspensions per batch (expected: " + BATCH + ")");
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() throws InterruptedException {
            close(scheduler);
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object flowYield(FlowYield s) {
        return s.scheduler.submit(s.flow).join();
    }

    // ------------------------------------------------------------------ (b) flow ping-pong

    @State(Scope.Thread)
    public static class FlowPingPong {
        @Param({"1", "3", "10"})
        int depth;
        @Param({"1", "2"})
        int workers;

        FlowScheduler scheduler;
        final Baton ping = new Baton();
        final Reply reply = new Reply();
        FlowHandle<Object> handle;

        @Setup(Level.Trial)
        public void setUp() {
            scheduler = scheduler(workers);
            Callable<Object> flow = loader().newInstance(Callable.class, FLOWS + ".PingPongLoop", ping, reply, depth);
            handle = scheduler.submit(flow);
            long before = scheduler.stats().resumed();
            for (int i = 0; i < 100; i++) {
                if (!ping.awaitWaiter(10_000)) {
                    throw new IllegalStateException("flowPingPong: the flow did not suspend in 10 s: " + scheduler.stats());
                }
                ping.complete();
                if (!reply.await(10_000)) {
                    throw new IllegalStateException("flowPingPong: no reply in 10 s: " + scheduler.stats());
                }
            }
            long cycles = scheduler.stats().resumed() - before;
            if (cycles != 100) {
                throw new IllegalStateException("flowPingPong: " + cycles + " suspensions in 100 rounds (expected: 100)");
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() throws Exception {
            // The last round's flow may still be on its way to the await: wait until it has
            // suspended, or it would find the stop ping already done and count a round that was
            // never resumed.
            if (!ping.awaitWaiter(10_000)) {
                throw new IllegalStateException("flowPingPong: the flow did not suspend in 10 s: " + scheduler.stats());
            }
            reply.requestStop();
            ping.complete();
            long rounds = ((Number) handle.get(Duration.ofSeconds(10))).longValue();
            FlowStats st = scheduler.stats();
            close(scheduler);
            if (!st.isIdle() || st.failed() != 0) {
                throw new IllegalStateException("flowPingPong: scheduler not idle after the run: " + st);
            }
            if (st.resumed() != rounds) {
                throw new IllegalStateException("flowPingPong: " + rounds + " rounds but " + st.resumed() + " resumptions");
            }
        }
    }

    @Benchmark
    public void flowPingPong(FlowPingPong s) {
        Baton ping = s.ping;
        while (!ping.hasWaiter()) { // the flow is still on its way to the await: let it suspend
            Thread.onSpinWait();
        }
        ping.complete();
        s.reply.await();
    }

    // ------------------------------------------------------------------ raw Tascalate JavaFlow

    @State(Scope.Thread)
    public static class RawYield {
        @Param({"1", "3", "10"})
        int depth;

        Runnable loop;
        Continuation c;

        @Setup(Level.Trial)
        public void setUp() {
            RawJavaflowLoader l = new RawJavaflowLoader(AwaitResumeBenchmark.class.getClassLoader(), "dev.flow.bench.raw");
            loop = l.newInstance(Runnable.class, "dev.flow.bench.raw.RawYieldLoop", depth, RAW_CYCLES);
            c = Continuation.startWith(loop, true);
            if (c == null) {
                throw new IllegalStateException("rawJavaflow: the loop did not suspend (not instrumented?)");
            }
        }
    }

    @Benchmark
    public Continuation rawJavaflow(RawYield s) {
        Continuation next = s.c.resume();
        if (next == null) {
            next = Continuation.startWith(s.loop, true);
        }
        s.c = next;
        return next;
    }

    // ------------------------------------------------------------------ (a') virtual-thread yield

    @State(Scope.Thread)
    public static class VtYield {
        @Param({"1", "3", "10"})
        int depth;

        @Setup(Level.Trial)
        public void setUp() throws InterruptedException {
            VirtualThreads.require();
            Thread t = VirtualThreads.start(new VtYieldLoop(depth, 10));
            t.join();
            if (!VirtualThreads.isVirtual(t)) {
                throw new IllegalStateException("vtYield: not a virtual thread: " + t);
            }
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long vtYield(VtYield s) throws InterruptedException {
        VtYieldLoop loop = new VtYieldLoop(s.depth, BATCH);
        Thread t = VirtualThreads.start(loop);
        t.join();
        return loop.sum;
    }

    // ------------------------------------------------------------------ (b') virtual-thread park/unpark

    @State(Scope.Thread)
    public static class VtParkUnpark {
        @Param({"1", "3", "10"})
        int depth;

        final Reply reply = new Reply();
        VtPingPong responder;
        Thread thread;

        @Setup(Level.Trial)
        public void setUp() {
            VirtualThreads.require();
            responder = new VtPingPong(reply, depth);
            thread = VirtualThreads.unstarted(responder);
            responder.bind(thread);
            thread.start();
            for (int i = 0; i < 100; i++) {
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (!responder.isParked()) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("vtPingPong: the virtual thread did not park in 10 s");
                    }
                    Thread.yield();
                }
                responder.ping();
                if (!reply.await(10_000)) {
                    throw new IllegalStateException("vtPingPong: no reply in 10 s");
                }
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() throws InterruptedException {
            if (thread == null) {
                return;
            }
            reply.requestStop();
            responder.ping();
            thread.join(10_000);
            if (thread.isAlive()) {
                throw new IllegalStateException("vtPingPong: responder did not stop");
            }
        }
    }

    @Benchmark
    public void vtPingPong(VtParkUnpark s) {
        VtPingPong r = s.responder;
        while (!r.isParked()) { // the thread is still on its way to park(): let it unmount
            Thread.onSpinWait();
        }
        r.ping();
        s.reply.await();
    }
}
