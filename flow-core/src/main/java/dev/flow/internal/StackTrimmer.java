package dev.flow.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.apache.commons.javaflow.core.Stack;
import org.apache.commons.javaflow.core.StackRecorder;

/**
 * Packs the stack of a parked flow into two small arrays and unpacks it before the flow resumes.
 * The engine keeps a captured stack in three arrays sized for growth (a {@code long[16]}, an {@code
 * Object[8]} and an {@code Object[4]}, about 270 bytes with their headers); a parked flow at depth 3
 * needs a fraction of that. Packed, the object and reference stacks share one {@code Object[]}
 * (whose last slot holds the primitive stack) and the primitive stack, mostly resume points and
 * small ints, is a {@code byte[]} of zigzag varints. It reaches into the engine's private fields, so
 * it is used only when they are found as expected.
 *
 * <p>A packed stack is marked by the {@link #PACKED} primitive stack; only {@link #unpack} may run
 * before the engine touches it again. Both run on the thread that owns the flow at that moment (the
 * worker that has just captured it, the one about to resume it); the hand-over between them
 * publishes the arrays.
 */
final class StackTrimmer {

    private static final long[] PACKED = new long[0];
    private static final Object[] NO_OBJECTS = new Object[0];

    private static final VarHandle PSTACK;
    private static final VarHandle OSTACK;
    private static final VarHandle RSTACK;
    private static final VarHandle[] PTOPS;
    private static final VarHandle OTOP;
    private static final VarHandle RTOP;

    static {
        VarHandle pstack = null;
        VarHandle ostack = null;
        VarHandle rstack = null;
        VarHandle[] ptops = null;
        VarHandle otop = null;
        VarHandle rtop = null;
        try {
            MethodHandles.Lookup core = MethodHandles.privateLookupIn(Stack.class, MethodHandles.lookup());
            pstack = core.findVarHandle(Stack.class, "pstack", long[].class);
            ostack = core.findVarHandle(Stack.class, "ostack", Object[].class);
            rstack = core.findVarHandle(Stack.class, "rstack", Object[].class);
            ptops = new VarHandle[] {core.findVarHandle(Stack.class, "dTop", int.class),
                core.findVarHandle(Stack.class, "fTop", int.class), core.findVarHandle(Stack.class, "lTop", int.class),
                core.findVarHandle(Stack.class, "iTop", int.class)};
            otop = core.findVarHandle(Stack.class, "oTop", int.class);
            rtop = core.findVarHandle(Stack.class, "rTop", int.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            Slf4j.logger(StackTrimmer.class).debug("continuation stacks will not be packed: {}", e.toString());
            pstack = null;
        }
        PSTACK = pstack;
        OSTACK = ostack;
        RSTACK = rstack;
        PTOPS = ptops;
        OTOP = otop;
        RTOP = rtop;
    }

    private StackTrimmer() {
    }

    /** Whether packing is available with this engine version. */
    static boolean available() {
        return PSTACK != null;
    }

    /** Packs the stack captured in {@code s}; it must be unpacked with {@link #unpack} before it runs again. */
    static void pack(StackRecorder s) {
        int p = primitives(s);
        int o = (int) OTOP.get(s);
        int r = (int) RTOP.get(s);
        long[] ps = (long[]) PSTACK.get(s);
        Object[] packed = new Object[o + r + 1];
        System.arraycopy((Object[]) OSTACK.get(s), 0, packed, 0, o);
        System.arraycopy((Object[]) RSTACK.get(s), 0, packed, o, r);
        packed[o + r] = encode(ps, p);
        OSTACK.set(s, packed);
        RSTACK.set(s, NO_OBJECTS);
        PSTACK.set(s, PACKED);
    }

    /** Restores the engine's arrays of {@code s} if it was packed; does nothing otherwise. */
    static void unpack(StackRecorder s) {
        if (PSTACK == null || PSTACK.get(s) != PACKED) {
            return;
        }
        int o = (int) OTOP.get(s);
        int r = (int) RTOP.get(s);
        Object[] packed = (Object[]) OSTACK.get(s);
        Object[] os = new Object[o];
        Object[] rs = new Object[r];
        System.arraycopy(packed, 0, os, 0, o);
        System.arraycopy(packed, o, rs, 0, r);
        PSTACK.set(s, decode((byte[]) packed[o + r], primitives(s)));
        OSTACK.set(s, os);
        RSTACK.set(s, rs);
    }

    private static int primitives(StackRecorder s) {
        int p = 0;
        for (VarHandle top : PTOPS) {
            p += (int) top.get(s);
        }
        return p;
    }

    /** The first {@code n} values of {@code ps} as zigzag varints (1 byte for -64..63). */
    static byte[] encode(long[] ps, int n) {
        int size = 0;
        for (int i = 0; i < n; i++) {
            size += varintSize(zigzag(ps[i]));
        }
        byte[] b = new byte[size];
        int at = 0;
        for (int i = 0; i < n; i++) {
            long v = zigzag(ps[i]);
            while ((v & ~0x7FL) != 0) {
                b[at++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            b[at++] = (byte) v;
        }
        return b;
    }

    /** The {@code n} values {@link #encode} wrote into {@code b}. */
    static long[] decode(byte[] b, int n) {
        long[] ps = new long[n];
        int at = 0;
        for (int i = 0; i < n; i++) {
            long v = 0;
            int shift = 0;
            byte x;
            do {
                x = b[at++];
                v |= (long) (x & 0x7F) << shift;
                shift += 7;
            } while (x < 0);
            ps[i] = (v >>> 1) ^ -(v & 1);
        }
        return ps;
    }

    private static long zigzag(long v) {
        return (v << 1) ^ (v >> 63);
    }

    private static int varintSize(long v) {
        int n = 1;
        while ((v & ~0x7FL) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }
}
