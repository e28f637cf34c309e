package dev.flow.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.concurrent.atomic.AtomicReference;
import org.apache.commons.javaflow.core.ResumeParameter;
import org.apache.commons.javaflow.core.StackRecorder;
import org.junit.jupiter.api.Test;

/**
 * {@link Engine#current()}, the lookup at every instrumented method's entry: the flow's recorder on Flow's threads,
 * nothing elsewhere, so that instrumented code called outside a flow runs as plain code without a thread-local lookup.
 */
class EngineCurrentTest {

    /** Runs {@code body} on a Flow thread whose running continuation is {@code r}. */
    private static void onFlowThread(StackRecorder r, Runnable body) throws InterruptedException {
        SchedulerCore.Runner t = new SchedulerCore.Runner(body, "engine-current") {
        };
        t.recorder = r;
        t.start();
        t.join(10_000);
        assertFalse(t.isAlive(), "engine-current thread still running");
    }

    @Test
    void currentIsTheRecorderOfTheFlowRunningOnAFlowThread() throws Exception {
        StackRecorder r = new StackRecorder((Runnable) null);
        AtomicReference<StackRecorder> seen = new AtomicReference<>();
        onFlowThread(r, () -> seen.set(Engine.current()));
        assertSame(r, seen.get());
    }

    @Test
    void currentIsNullOnAFlowThreadBetweenFlows() throws Exception {
        AtomicReference<StackRecorder> seen = new AtomicReference<>(new StackRecorder((Runnable) null));
        onFlowThread(null, () -> seen.set(Engine.current()));
        assertNull(seen.get());
    }

    @Test
    void currentIsNullOnAnyOtherThreadEvenInsideTheEnginesOwnContinuation() {
        // A continuation run with the engine's API on a thread that is not Flow's binds the engine's thread-local:
        // instrumented code there still runs as plain code.
        AtomicReference<StackRecorder> bound = new AtomicReference<>();
        AtomicReference<StackRecorder> seen = new AtomicReference<>(new StackRecorder((Runnable) null));
        StackRecorder raw = new StackRecorder((Runnable) () -> {
            bound.set(StackRecorder.get());
            seen.set(Engine.current());
        });
        raw.execute(ResumeParameter.value(null));
        assertSame(raw, bound.get(), "the engine bound its continuation to this thread");
        assertNull(seen.get());
    }
}
