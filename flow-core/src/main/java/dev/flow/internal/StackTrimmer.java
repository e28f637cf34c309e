package dev.flow.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.apache.commons.javaflow.api.Continuation;
import org.slf4j.LoggerFactory;

/**
 * Shrinks the arrays of a captured JavaFlow stack to what they hold. The engine sizes them for
 * growth (a {@code long[16]} and two {@code Object[]}s, about 270 bytes); a parked flow at depth 3
 * needs about a third of that. It reaches into the engine's private fields, so it is used only when
 * they are found as expected, and the engine grows the arrays again on the next capture.
 *
 * <p>Runs on the worker that has just captured the flow, before anything else can see it.
 */
final class StackTrimmer {

    private static final long[] NO_LONGS = new long[0];
    private static final Object[] NO_OBJECTS = new Object[0];

    private static final VarHandle RECORDER;
    private static final VarHandle PSTACK;
    private static final VarHandle OSTACK;
    private static final VarHandle RSTACK;
    private static final VarHandle[] PTOPS;
    private static final VarHandle OTOP;
    private static final VarHandle RTOP;

    static {
        VarHandle recorder = null;
        VarHandle pstack = null;
        VarHandle ostack = null;
        VarHandle rstack = null;
        VarHandle[] ptops = null;
        VarHandle otop = null;
        VarHandle rtop = null;
        try {
            MethodHandles.Lookup api = MethodHandles.privateLookupIn(Continuation.class, MethodHandles.lookup());
            Class<?> recorderType = Class.forName("org.apache.commons.javaflow.core.StackRecorder");
            Class<?> stackType = Class.forName("org.apache.commons.javaflow.core.Stack");
            MethodHandles.Lookup core = MethodHandles.privateLookupIn(stackType, MethodHandles.lookup());
            recorder = api.findVarHandle(Continuation.class, "stackRecorder", recorderType);
            pstack = core.findVarHandle(stackType, "pstack", long[].class);
            ostack = core.findVarHandle(stackType, "ostack", Object[].class);
            rstack = core.findVarHandle(stackType, "rstack", Object[].class);
            ptops = new VarHandle[] {core.findVarHandle(stackType, "dTop", int.class),
                core.findVarHandle(stackType, "fTop", int.class), core.findVarHandle(stackType, "lTop", int.class),
                core.findVarHandle(stackType, "iTop", int.class)};
            otop = core.findVarHandle(stackType, "oTop", int.class);
            rtop = core.findVarHandle(stackType, "rTop", int.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LoggerFactory.getLogger(StackTrimmer.class).debug("continuation stacks will not be trimmed: {}", e.toString());
            recorder = null;
        }
        RECORDER = recorder;
        PSTACK = pstack;
        OSTACK = ostack;
        RSTACK = rstack;
        PTOPS = ptops;
        OTOP = otop;
        RTOP = rtop;
    }

    private StackTrimmer() {
    }

    /** Whether trimming is available with this engine version. */
    static boolean available() {
        return RECORDER != null;
    }

    /** Trims the stack captured in {@code c}. */
    static void trim(Continuation c) {
        Object stack = RECORDER.get(c);
        int p = 0;
        for (VarHandle top : PTOPS) {
            p += (int) top.get(stack);
        }
        long[] ps = (long[]) PSTACK.get(stack);
        if (ps.length > p) {
            PSTACK.set(stack, p == 0 ? NO_LONGS : java.util.Arrays.copyOf(ps, p));
        }
        int o = (int) OTOP.get(stack);
        Object[] os = (Object[]) OSTACK.get(stack);
        if (os.length > o) {
            OSTACK.set(stack, o == 0 ? NO_OBJECTS : java.util.Arrays.copyOf(os, o));
        }
        int r = (int) RTOP.get(stack);
        Object[] rs = (Object[]) RSTACK.get(stack);
        if (rs.length > r) {
            RSTACK.set(stack, r == 0 ? NO_OBJECTS : java.util.Arrays.copyOf(rs, r));
        }
    }
}
