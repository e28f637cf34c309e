package dev.flow.bench;

import dev.flow.internal.FlowEvents;
import java.util.concurrent.TimeUnit;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.CompilerControl;
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
 * What Flow's JFR events cost while they are registered but no recording enables them (#17): the one call a
 * flow makes each time it leaves its worker, {@link FlowEvents#pinnedWaitEnds()} with no pinned wait open,
 * {@value #CALLS} times per invocation ({@code pinnedWaitEnds}); beside it, for scale, the same loop around an
 * empty method call the JIT may not inline ({@code emptyCall}). One op = one call; the loop's own cost is
 * counted in, so {@code pinnedWaitEnds} is an upper bound on what the events add to a flow run. Multiplied by
 * the flow runs per request and divided by a request's CPU, it bounds the events' share of a load.
 *
 * <p>{@code jfr}: {@code none} (no recording: the event classes are not loaded) or {@code disabled} (a
 * recording runs with {@code dev.flow.Pinned} and {@code dev.flow.Refused} registered and disabled).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
@State(Scope.Thread)
public class FlowEventsBenchmark {

    /** Calls per invocation. */
    public static final int CALLS = 1_000;

    static final String[] EVENTS = {"dev.flow.internal.PinnedEvent", "dev.flow.internal.RefusedEvent"};

    @Param({"none", "disabled"})
    String jfr;

    Recording recording;

    @Setup(Level.Trial)
    public void setUp() throws ReflectiveOperationException {
        switch (jfr) {
            case "none":
                break;
            case "disabled":
                recording = new Recording();
                for (String name : EVENTS) {
                    @SuppressWarnings("unchecked")
                    Class<? extends jdk.jfr.Event> event = (Class<? extends jdk.jfr.Event>) Class.forName(name);
                    FlightRecorder.register(event);
                    recording.disable(event);
                }
                recording.start();
                boolean registered = FlightRecorder.getFlightRecorder().getEventTypes().stream()
                        .anyMatch(t -> t.getName().equals("dev.flow.Pinned") && !t.isEnabled());
                if (!registered) {
                    throw new IllegalStateException("dev.flow.Pinned is not registered and disabled");
                }
                break;
            default:
                throw new IllegalArgumentException("jfr: " + jfr + " (expected: none or disabled)");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (recording != null) {
            recording.close();
        }
    }

    /** The call a flow leaving its worker makes. */
    @Benchmark
    @OperationsPerInvocation(CALLS)
    public void pinnedWaitEnds() {
        for (int i = 0; i < CALLS; i++) {
            FlowEvents.pinnedWaitEnds();
        }
    }

    /** The same loop around a call that does nothing and is not inlined: one method call, for scale. */
    @Benchmark
    @OperationsPerInvocation(CALLS)
    public void emptyCall() {
        for (int i = 0; i < CALLS; i++) {
            nothing();
        }
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    private static void nothing() {
    }
}
