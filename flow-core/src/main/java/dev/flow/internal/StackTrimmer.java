package dev.flow.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import org.apache.commons.javaflow.core.Stack;
import org.apache.commons.javaflow.core.StackRecorder;

/**
 * Packs the stack of a parked flow into two small arrays and unpacks it before the flow resumes, and
 * lends a thread's spare arrays to the flows it runs. The engine keeps a captured stack in three arrays
 * sized for growth (a {@code long[16]}, an {@code Object[8]} and an {@code Object[4]} when it creates a
 * continuation, about 270 bytes with their headers); a parked flow at depth 3 needs a fraction of that.
 * Packed, the object and reference stacks share one {@code Object[]} (whose last slot holds the primitive
 * stack) and the primitive stack, mostly resume points and small ints, is a {@code byte[]} of zigzag
 * varints. It reaches into the engine's private fields, so it is used only when they are found as
 * expected.
 *
 * <p>A continuation starts with empty arrays ({@link #fresh}). The thread that runs it lends it its
 * {@link Spare} arrays ({@link #lend}), and takes them back when the flow is packed ({@link #pack}) or
 * ends ({@link #reclaim}); a flow parked unpacked keeps them, and the thread makes do without until
 * another flow gives some back. So neither a start nor the resumption of a packed flow allocates the
 * engine's arrays. Arrays are owned by one continuation or one thread at a time, and hold no reference
 * once given back.
 *
 * <p>A packed stack is marked by the {@link #PACKED} primitive stack; only {@link #lend} may run
 * before the engine touches it again. Everything here runs on the thread that owns the flow at that
 * moment (the worker that has just captured it, the one about to resume it); the hand-over between
 * them publishes the arrays.
 */
final class StackTrimmer {

    private static final long[] PACKED = new long[0];
    private static final long[] NO_PRIMITIVES = new long[0];
    private static final Object[] NO_OBJECTS = new Object[0];
    /** Longer spare arrays (a deep recursion's) are left to the collector rather than kept by a thread. */
    static final int MAX_SPARE_LENGTH = 64;

    private static final VarHandle PSTACK;
    private static final VarHandle OSTACK;
    private static final VarHandle RSTACK;
    private static final VarHandle[] PTOPS;
    private static final VarHandle OTOP;
    private static final VarHandle RTOP;
    private static final VarHandle RUNNABLE;
    /** What {@link #fresh} copies: a continuation of empty arrays. */
    private static final StackRecorder EMPTY;

    static {
        VarHandle pstack = null;
        VarHandle ostack = null;
        VarHandle rstack = null;
        VarHandle[] ptops = null;
        VarHandle otop = null;
        VarHandle rtop = null;
        VarHandle runnable = null;
        StackRecorder empty = null;
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
            runnable = core.findVarHandle(Stack.class, "runnable", Runnable.class);
            empty = new StackRecorder((Runnable) null);
            pstack.set(empty, NO_PRIMITIVES);
            ostack.set(empty, NO_OBJECTS);
            rstack.set(empty, NO_OBJECTS);
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
        RUNNABLE = runnable;
        EMPTY = empty;
    }

    private StackTrimmer() {
    }

    /** Whether packing is available with this engine version. */
    static boolean available() {
        return PSTACK != null;
    }

    /**
     * A continuation that runs {@code root} from its start, with empty arrays: {@link #lend} gives it a
     * thread's spare ones, or the engine grows them as it captures.
     */
    static StackRecorder fresh(Runnable root) {
        StackRecorder s = new StackRecorder(EMPTY);
        RUNNABLE.set(s, root);
        return s;
    }

    /**
     * Packs the stack captured in {@code s}; it must be unpacked ({@link #lend}) before it runs again. Its
     * engine arrays, emptied, go to {@code spare} if that has none of the kind.
     */
    static void pack(StackRecorder s, Spare spare) {
        int p = primitives(s);
        int o = (int) OTOP.get(s);
        int r = (int) RTOP.get(s);
        long[] ps = (long[]) PSTACK.get(s);
        Object[] os = (Object[]) OSTACK.get(s);
        Object[] rs = (Object[]) RSTACK.get(s);
        Object[] packed = new Object[o + r + 1];
        System.arraycopy(os, 0, packed, 0, o);
        System.arraycopy(rs, 0, packed, o, r);
        packed[o + r] = encode(ps, p);
        OSTACK.set(s, packed);
        RSTACK.set(s, NO_OBJECTS);
        PSTACK.set(s, PACKED);
        Arrays.fill(os, 0, o, null);
        Arrays.fill(rs, 0, r, null);
        spare.offer(ps, os, rs);
    }

    /**
     * Readies {@code s} to run on the thread whose spare arrays are {@code spare}: a packed stack is
     * unpacked into them (or into new arrays where they are missing or too short), and a fresh
     * continuation's empty arrays are replaced by them. Does nothing to a continuation that kept its
     * arrays.
     */
    static void lend(StackRecorder s, Spare spare) {
        long[] ps = (long[]) PSTACK.get(s);
        if (ps == PACKED) {
            int p = primitives(s);
            int o = (int) OTOP.get(s);
            int r = (int) RTOP.get(s);
            Object[] packed = (Object[]) OSTACK.get(s);
            Object[] os = spare.objects(o);
            Object[] rs = spare.references(r);
            System.arraycopy(packed, 0, os, 0, o);
            System.arraycopy(packed, o, rs, 0, r);
            PSTACK.set(s, decode((byte[]) packed[o + r], p, spare.primitives(p)));
            OSTACK.set(s, os);
            RSTACK.set(s, rs);
        } else if (ps.length == 0) {
            PSTACK.set(s, spare.primitives(0));
            OSTACK.set(s, spare.objects(0));
            RSTACK.set(s, spare.references(0));
        }
    }

    /**
     * Gives the arrays of {@code s}, a continuation that has ended, to {@code spare}; arrays still holding
     * values (an end half-way through a capture) are left to the collector.
     */
    static void reclaim(StackRecorder s, Spare spare) {
        long[] ps = (long[]) PSTACK.get(s);
        if (ps == PACKED || primitives(s) != 0 || (int) OTOP.get(s) != 0 || (int) RTOP.get(s) != 0) {
            return;
        }
        Object[] os = (Object[]) OSTACK.get(s);
        Object[] rs = (Object[]) RSTACK.get(s);
        PSTACK.set(s, NO_PRIMITIVES);
        OSTACK.set(s, NO_OBJECTS);
        RSTACK.set(s, NO_OBJECTS);
        spare.offer(ps, os, rs);
    }

    /** The engine's primitive stack of {@code s} (for tests). */
    static long[] primitiveStack(StackRecorder s) {
        return (long[]) PSTACK.get(s);
    }

    /** The engine's object stack of {@code s} (for tests). */
    static Object[] objectStack(StackRecorder s) {
        return (Object[]) OSTACK.get(s);
    }

    /** The engine's reference stack of {@code s} (for tests). */
    static Object[] referenceStack(StackRecorder s) {
        return (Object[]) RSTACK.get(s);
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
        return decode(b, n, new long[n]);
    }

    /** The {@code n} values {@link #encode} wrote into {@code b}, in {@code ps} (at least {@code n} long). */
    private static long[] decode(byte[] b, int n, long[] ps) {
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

    /**
     * The engine arrays a thread keeps between the flows it runs, each empty (no reference held) or
     * missing; that thread's only.
     */
    static final class Spare {
        private long[] primitives;
        private Object[] objects;
        private Object[] references;

        /** The spare primitive stack if it holds {@code n} values, else a new one; the spare is then missing. */
        long[] primitives(int n) {
            long[] a = primitives;
            primitives = null;
            return a != null && a.length >= n ? a : new long[Math.max(8, n)];
        }

        /** The spare object stack if it holds {@code n} values, else a new one; the spare is then missing. */
        Object[] objects(int n) {
            Object[] a = objects;
            objects = null;
            return a != null && a.length >= n ? a : new Object[Math.max(8, n)];
        }

        /** The spare reference stack if it holds {@code n} values, else a new one; the spare is then missing. */
        Object[] references(int n) {
            Object[] a = references;
            references = null;
            return a != null && a.length >= n ? a : new Object[Math.max(8, n)];
        }

        /** Keeps the given empty arrays where this has none of the kind and they are not too long. */
        void offer(long[] ps, Object[] os, Object[] rs) {
            if (primitives == null && ps.length > 0 && ps.length <= MAX_SPARE_LENGTH) {
                primitives = ps;
            }
            if (objects == null && os.length > 0 && os.length <= MAX_SPARE_LENGTH) {
                objects = os;
            }
            if (references == null && rs.length > 0 && rs.length <= MAX_SPARE_LENGTH) {
                references = rs;
            }
        }
    }
}
