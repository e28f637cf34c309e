package dev.flow.internal;

import java.lang.invoke.MethodHandles;
import org.apache.commons.javaflow.core.ResumeParameter;
import org.apache.commons.javaflow.core.StackRecorder;
import org.apache.commons.javaflow.core.SuspendResult;

/**
 * Runs a flow's continuation through the engine's {@link StackRecorder} directly, the way a
 * single-shot {@code Continuation} does, without its wrapper: no {@code Continuation} object per
 * flow nor per resumption.
 *
 * <p>The engine binds the recorder to the running thread in a {@code ThreadLocal} and, when nothing
 * was bound before, removes the entry afterwards, so every resumption would allocate a new map
 * entry. A resumption here binds a placeholder first, which the engine then restores instead of
 * removing, and binds {@code null} afterwards: the entry is allocated once per thread. Outside a
 * resumption the thread's binding is {@code null}, as without it.
 *
 * <p>Instrumented code looks the running continuation up at every method entry; the loader
 * redirects that lookup to {@link #current()}, which reads a field of Flow's threads instead of the
 * engine's thread-local (about 0.6 ns less per instrumented frame in a flow; on other threads, which
 * Flow never runs a continuation on, no lookup at all: bench/RESULTS.md). The field is right only
 * because no continuation but the flow's runs on those threads: the loader refuses in-scope code
 * that runs continuations itself. Runs on the thread resuming the flow.
 */
public final class Engine {

    /** The engine's thread binding, or {@code null} if it cannot be reached. */
    private static final ThreadLocal<StackRecorder> BINDING = binding();
    /** Bound while nothing else is, so that the engine restores it instead of removing the entry. */
    private static final StackRecorder PLACEHOLDER = new StackRecorder((Runnable) null);
    private static final boolean PACK = StackTrimmer.available();

    private Engine() {
    }

    @SuppressWarnings("unchecked")
    private static ThreadLocal<StackRecorder> binding() {
        try {
            return (ThreadLocal<StackRecorder>) MethodHandles.privateLookupIn(StackRecorder.class, MethodHandles.lookup())
                    .findStaticVarHandle(StackRecorder.class, "threadMap", ThreadLocal.class).get();
        } catch (ReflectiveOperationException | RuntimeException e) {
            Slf4j.logger(Engine.class).debug("continuation thread binding not reachable: {}", e.toString());
            return null;
        }
    }

    /** A continuation that runs {@code root} from its start; its stack arrays come when it first runs. */
    static StackRecorder start(Runnable root) {
        return PACK ? StackTrimmer.fresh(root) : new StackRecorder(root);
    }

    /**
     * Runs {@code c} on {@code on}, the current thread, until it suspends or ends; {@link #current()}
     * returns {@code c} meanwhile.
     *
     * @return {@code true} if it suspended, {@code false} if it ended
     * @throws IllegalStateException if the code asked to run again ({@code Continuation.again()}),
     *     which a single-shot continuation refuses
     */
    static boolean resume(StackRecorder c, SchedulerCore.Runner on) {
        StackRecorder outer = on.recorder;
        on.recorder = c;
        boolean suspended = false;
        try {
            if (PACK) {
                StackTrimmer.lend(c, on.spare);
            }
            suspended = resume(c);
            return suspended;
        } finally {
            on.recorder = outer;
            if (PACK && !suspended) {
                StackTrimmer.reclaim(c, on.spare);
            }
        }
    }

    /**
     * The recorder of the flow running on this thread, or {@code null}: what instrumented code looks
     * up at every method entry (the loader redirects JavaFlow's {@code StackRecorder.get()} here). A
     * field of Flow's threads, the only threads Flow resumes flows on; {@code null} on any other
     * thread, where instrumented code runs as plain code (a platform or virtual thread calling an
     * instrumented library outside a flow pays no thread-local lookup per method), as {@link
     * #caught()} already treats them.
     */
    public static StackRecorder current() {
        Thread t = Thread.currentThread();
        return t instanceof SchedulerCore.Runner ? ((SchedulerCore.Runner) t).recorder : null;
    }

    /**
     * Called by instrumented code at the start of every exception handler (catch and finally
     * blocks): only when an exception is caught. No user code runs while the engine restores or
     * captures a stack, so a flow whose recorder is still restoring or capturing here was
     * interrupted half-way by an exception thrown on the way (a {@code StackOverflowError} on a
     * deep stack, say). A restore is abandoned: the frames up to the handler are whole, those below
     * are unwound by the exception, and the rest of the recorded stack is discarded, so that later
     * calls run as plain calls instead of popping a partial stack. A capture cannot be abandoned
     * (the flow's wake-up is registered): the flow fails with an {@code IllegalStateException}.
     * Does nothing outside a flow.
     *
     * @throws IllegalStateException if an exception interrupted the capture of the flow's stack
     */
    public static void caught() {
        Thread t = Thread.currentThread();
        StackRecorder r = t instanceof SchedulerCore.Runner ? ((SchedulerCore.Runner) t).recorder : null;
        if (r == null || !(r.isRestoring || r.isCapturing)) {
            return;
        }
        boolean capturing = r.isCapturing;
        discard(r);
        if (capturing) {
            throw new IllegalStateException("an exception interrupted the capture of the flow's stack at a suspension;"
                    + " the flow cannot continue (a StackOverflowError on a deep stack? give the workers a larger stack)");
        }
    }

    /** Ends a restore or capture of {@code r} half-way: its recorded stack is emptied. */
    private static void discard(StackRecorder r) {
        r.isRestoring = false;
        r.isCapturing = false;
        while (r.hasInt()) {
            r.popInt();
        }
        while (r.hasLong()) {
            r.popLong();
        }
        while (r.hasFloat()) {
            r.popFloat();
        }
        while (r.hasDouble()) {
            r.popDouble();
        }
        while (r.hasObject()) {
            r.popObject();
        }
        while (r.hasReference()) {
            r.popReference();
        }
    }

    private static boolean resume(StackRecorder c) {
        ThreadLocal<StackRecorder> binding = BINDING;
        SuspendResult r;
        if (binding == null || binding.get() != null) {
            r = c.execute(ResumeParameter.value(null));
        } else {
            binding.set(PLACEHOLDER);
            try {
                r = c.execute(ResumeParameter.value(null));
            } finally {
                binding.set(null);
            }
        }
        if (r == SuspendResult.EXIT || r == SuspendResult.CANCEL) {
            return false;
        }
        if (r == SuspendResult.AGAIN) {
            throw new IllegalStateException("Single-shot continuation may not be re-tried");
        }
        return true;
    }

    /**
     * Packs the stack of {@code c}, which has just suspended on {@code on}, and gives its arrays to that
     * thread's spares; see {@link StackTrimmer}.
     */
    static void pack(StackRecorder c, SchedulerCore.Runner on) {
        if (PACK) {
            StackTrimmer.pack(c, on.spare);
        }
    }
}
