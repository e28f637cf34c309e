package dev.flow.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;
import org.apache.commons.javaflow.core.StackRecorder;
import org.junit.jupiter.api.Test;

/**
 * {@link Engine#caught()}: an exception caught in a flow while the engine was restoring or capturing
 * its stack (issue 15, finding 5) ends that restore or capture instead of leaving the recorder half-way.
 */
class EngineCaughtTest {

    private static StackRecorder recorded() {
        StackRecorder r = new StackRecorder((Runnable) null);
        r.pushInt(2);
        r.pushLong(7L);
        r.pushDouble(0.5);
        r.pushFloat(1f);
        r.pushObject("frame");
        r.pushReference(new Object());
        return r;
    }

    /** Runs {@link Engine#caught()} on a flow thread whose running continuation is {@code r}; returns what it threw. */
    private static Throwable caughtOnFlowThread(StackRecorder r) throws InterruptedException {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        SchedulerCore.Runner t = new SchedulerCore.Runner(() -> {
            try {
                Engine.caught();
            } catch (Throwable e) {
                thrown.set(e);
            }
        }, "engine-caught") {
        };
        t.recorder = r;
        t.start();
        t.join(10_000);
        assertFalse(t.isAlive(), "engine-caught thread still running");
        return thrown.get();
    }

    @Test
    void aRestoreInterruptedByACaughtExceptionIsAbandonedWithItsRecordedStack() throws Exception {
        StackRecorder r = recorded();
        r.isRestoring = true;
        assertEquals(null, caughtOnFlowThread(r));
        assertFalse(r.isRestoring);
        assertTrue(r.isEmpty(), r::toString);
    }

    @Test
    void aCaptureInterruptedByACaughtExceptionFailsTheFlowClearly() throws Exception {
        StackRecorder r = recorded();
        r.isCapturing = true;
        Throwable e = caughtOnFlowThread(r);
        assertTrue(e instanceof IllegalStateException && e.getMessage().contains("interrupted the capture"), String.valueOf(e));
        assertFalse(r.isCapturing);
        assertTrue(r.isEmpty(), r::toString);
    }

    @Test
    void anExceptionCaughtWhileTheFlowRunsNormallyChangesNothing() throws Exception {
        StackRecorder r = recorded();
        assertEquals(null, caughtOnFlowThread(r));
        assertFalse(r.isEmpty());
        r.popReference();
        assertEquals("frame", r.popObject());
    }
}
