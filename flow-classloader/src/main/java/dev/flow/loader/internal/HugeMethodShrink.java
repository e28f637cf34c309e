package dev.flow.loader.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Makes the engine's capture and restore code of a method it took past {@link HugeMethods#LIMIT} smaller,
 * so that HotSpot compiles the method with its default {@code -XX:+DontCompileHugeMethods}. The engine
 * saves a method's locals at each suspendable call with one call of the recorder per local, and restores
 * them with one call per local at each call site too; a method with tens of such sites and tens of locals
 * (pgjdbc's {@code QueryExecutorImpl.processResults}: 2,303 bytes as compiled, 11,601 instrumented) is
 * mostly that code. Two rewritings, each of code only the engine writes, recognised by its exact shape
 * and left alone in any other:
 * <ul>
 *   <li><b>captures</b>: a run of pushes ({@code aload recorder; load value; invokevirtual push...}) becomes
 *       the loads and one call of a private static helper of the class that makes the same pushes in the
 *       same order; one helper per sequence of push kinds, shared by the class's methods;
 *   <li><b>restores</b>: the call sites whose restore code pops the same locals, of the same kinds, into
 *       the same slots, share one copy of those pops; the site's index, kept in a fresh local as the
 *       engine's dispatch reads it, selects the rest of each site's restore code (its operand stack, the
 *       callee, the call) after them. The frames of the code that moves are written here from the entry
 *       frame and the pops' types.
 * </ul>
 * The recorder sees the same calls in the same order either way. Methods within the limit are not
 * touched, nor a class with none beyond it; the result is checked by {@link EngineRun} as the engine's
 * is. Stateless; thread-safe.
 */
final class HugeMethodShrink {

    /** The prefix of the helpers' names; a number follows. */
    static final String HELPER_PREFIX = "flow$push$";
    /** The most values one helper takes (the JVM allows 255 argument slots). */
    private static final int MAX_VALUES = 100;

    private HugeMethodShrink() {
    }

    /** {@code enhanced} with its methods beyond the limit made smaller, or {@code enhanced} itself if none is. */
    static byte[] shrink(byte[] enhanced) {
        if (enhanced.length <= HugeMethods.LIMIT) {
            return enhanced;
        }
        Map<String, Integer> sizes = HugeMethods.codeLengths(enhanced);
        if (sizes.values().stream().noneMatch(n -> n > HugeMethods.LIMIT)) {
            return enhanced;
        }
        ClassNode cn = new ClassNode();
        new ClassReader(enhanced).accept(cn, ClassReader.EXPAND_FRAMES);
        Helpers helpers = new Helpers(cn);
        boolean changed = false;
        for (MethodNode m : new ArrayList<>(cn.methods)) {
            Integer size = sizes.get(m.name + m.desc);
            if (size != null && size > HugeMethods.LIMIT && m.instructions.size() > 0) {
                changed |= shareRestores(m);
                changed |= callCaptureHelpers(m, helpers);
            }
        }
        if (!changed) {
            return enhanced;
        }
        ClassWriter w = new ClassWriter(0);
        cn.accept(w);
        return w.toByteArray();
    }

    // ---- captures ------------------------------------------------------------------------------

    /** The helpers of one class, by the sequence of push methods they make. */
    private static final class Helpers {
        private final ClassNode cn;
        /** Helper names by descriptor and push methods. */
        private final Map<String, String> byPushes = new HashMap<>();
        private final Set<String> names = new HashSet<>();
        private int next;

        Helpers(ClassNode cn) {
            this.cn = cn;
            for (MethodNode m : cn.methods) {
                names.add(m.name);
            }
        }

        /** The name of the helper of descriptor {@code desc} that makes {@code pushes} in order, made on first use. */
        String helper(List<MethodInsnNode> pushes, String desc) {
            StringBuilder key = new StringBuilder(desc);
            for (MethodInsnNode p : pushes) {
                key.append(' ').append(p.name);
            }
            return byPushes.computeIfAbsent(key.toString(), unused -> {
                String name;
                do {
                    name = HELPER_PREFIX + next++;
                } while (!names.add(name));
                MethodNode h = new MethodNode(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC, name, desc, null, null);
                Type[] args = Type.getArgumentTypes(desc);
                int slot = 1;
                for (int k = 1; k < args.length; k++) {
                    h.instructions.add(new VarInsnNode(Opcodes.ALOAD, 0));
                    h.instructions.add(new VarInsnNode(args[k].getOpcode(Opcodes.ILOAD), slot));
                    MethodInsnNode p = pushes.get(k - 1);
                    h.instructions.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, p.owner, p.name, p.desc, false));
                    slot += args[k].getSize();
                }
                h.instructions.add(new InsnNode(Opcodes.RETURN));
                h.maxStack = 3;
                h.maxLocals = slot;
                cn.methods.add(h);
                return name;
            });
        }

        boolean isInterface() {
            return (cn.access & Opcodes.ACC_INTERFACE) != 0;
        }
    }

    /** Replaces each run of two or more pushes of {@code m} by one helper call; whether any was. */
    private static boolean callCaptureHelpers(MethodNode m, Helpers helpers) {
        if (helpers.isInterface() && (helpers.cn.version & 0xFFFF) < Opcodes.V1_8) {
            return false; // no private static methods in such an interface
        }
        boolean changed = false;
        int grown = 0;
        AbstractInsnNode i = m.instructions.getFirst();
        while (i != null) {
            int recorder = pushRecorder(i);
            if (recorder < 0) {
                i = i.getNext();
                continue;
            }
            List<AbstractInsnNode> loads = new ArrayList<>();
            List<MethodInsnNode> pushes = new ArrayList<>();
            List<AbstractInsnNode> recorderLoads = new ArrayList<>();
            AbstractInsnNode at = i;
            int slots = 0;
            while (at != null && pushes.size() < MAX_VALUES && pushRecorder(at) == recorder) {
                MethodInsnNode push = (MethodInsnNode) at.getNext().getNext();
                recorderLoads.add(at);
                loads.add(at.getNext());
                pushes.add(push);
                slots += Type.getArgumentTypes(push.desc)[0].getSize();
                at = push.getNext();
            }
            if (pushes.size() < 2) {
                i = at;
                continue;
            }
            StringBuilder desc = new StringBuilder("(L").append(Names.STACK_RECORDER).append(';');
            for (MethodInsnNode p : pushes) {
                desc.append(Type.getArgumentTypes(p.desc)[0].getDescriptor());
            }
            String name = helpers.helper(pushes, desc.append(")V").toString());
            // The recorder, each value's load, then the helper: the same pushes in the same order.
            AbstractInsnNode last = pushes.get(pushes.size() - 1);
            InsnList call = new InsnList();
            call.add(new VarInsnNode(Opcodes.ALOAD, recorder));
            for (AbstractInsnNode load : loads) {
                m.instructions.remove(load);
                call.add(load);
            }
            call.add(new MethodInsnNode(Opcodes.INVOKESTATIC, helpers.cn.name, name, desc.toString(), helpers.isInterface()));
            m.instructions.insert(last, call);
            recorderLoads.forEach(m.instructions::remove);
            pushes.forEach(m.instructions::remove);
            grown = Math.max(grown, slots - 1);
            changed = true;
            i = at;
        }
        // Before a run the stack held at most maxStack - 2 values; the call needs the recorder and every value.
        m.maxStack += grown;
        return changed;
    }

    /** The recorder's slot if a push of a plain value starts at {@code i} (see the class comment), else -1. */
    private static int pushRecorder(AbstractInsnNode i) {
        if (i == null || i.getOpcode() != Opcodes.ALOAD) {
            return -1;
        }
        AbstractInsnNode value = i.getNext();
        AbstractInsnNode call = value == null ? null : value.getNext();
        if (!(call instanceof MethodInsnNode) || call.getOpcode() != Opcodes.INVOKEVIRTUAL) {
            return -1;
        }
        MethodInsnNode push = (MethodInsnNode) call;
        if (!push.owner.equals(Names.STACK_RECORDER) || !push.name.startsWith("push")) {
            return -1;
        }
        Type[] args = Type.getArgumentTypes(push.desc);
        if (args.length != 1 || Type.getReturnType(push.desc) != Type.VOID_TYPE || !plainValue(value, args[0])) {
            return -1;
        }
        return ((VarInsnNode) i).var;
    }

    /** Whether {@code value} pushes a local or a constant of {@code type}'s kind and does nothing else. */
    private static boolean plainValue(AbstractInsnNode value, Type type) {
        int op = value.getOpcode();
        if (value instanceof VarInsnNode) {
            return op == type.getOpcode(Opcodes.ILOAD);
        }
        switch (type.getSort()) {
            case Type.INT:
                return op >= Opcodes.ICONST_M1 && op <= Opcodes.ICONST_5 || op == Opcodes.BIPUSH || op == Opcodes.SIPUSH;
            case Type.LONG:
                return op == Opcodes.LCONST_0 || op == Opcodes.LCONST_1;
            case Type.FLOAT:
                return op >= Opcodes.FCONST_0 && op <= Opcodes.FCONST_2;
            case Type.DOUBLE:
                return op == Opcodes.DCONST_0 || op == Opcodes.DCONST_1;
            case Type.OBJECT:
                return op == Opcodes.ACONST_NULL;
            default:
                return false;
        }
    }

    // ---- restores ------------------------------------------------------------------------------

    /** One pop of the restore code into a local: {@code aload recorder; invokevirtual pop...; [checkcast]; store}. */
    private static final class Pop {
        final AbstractInsnNode[] insns;
        final String key;

        Pop(AbstractInsnNode[] insns) {
            this.insns = insns;
            MethodInsnNode pop = (MethodInsnNode) insns[1];
            TypeInsnNode cast = insns.length == 4 ? (TypeInsnNode) insns[2] : null;
            VarInsnNode store = (VarInsnNode) insns[insns.length - 1];
            this.key = pop.name + ' ' + (cast == null ? "" : cast.desc) + ' ' + store.getOpcode() + ' ' + store.var;
        }

        VarInsnNode store() {
            return (VarInsnNode) insns[insns.length - 1];
        }

        /** The verifier's type of the local after this pop, in the frames' notation. */
        Object type() {
            switch (store().getOpcode()) {
                case Opcodes.ISTORE:
                    return Opcodes.INTEGER;
                case Opcodes.LSTORE:
                    return Opcodes.LONG;
                case Opcodes.FSTORE:
                    return Opcodes.FLOAT;
                case Opcodes.DSTORE:
                    return Opcodes.DOUBLE;
                default:
                    return insns.length == 4 ? ((TypeInsnNode) insns[2]).desc : "java/lang/Object";
            }
        }

        int bytes() {
            int n = 0;
            for (AbstractInsnNode i : insns) {
                n += i instanceof VarInsnNode ? varBytes((VarInsnNode) i) : 3;
            }
            return n;
        }
    }

    /** One site's restore code: the label the dispatch jumps to, its frame, its pops into locals. */
    private static final class Restore {
        final int site;
        final LabelNode label;
        final FrameNode frame;
        final List<Pop> pops;
        final String key;

        Restore(int site, LabelNode label, FrameNode frame, List<Pop> pops) {
            this.site = site;
            this.label = label;
            this.frame = frame;
            this.pops = pops;
            StringBuilder k = new StringBuilder();
            for (Pop p : pops) {
                k.append(p.key).append(';');
            }
            this.key = k.toString();
        }
    }

    /**
     * Shares the pops of the sites that restore the same locals the same way; whether any are. The
     * method must begin as the engine begins it: the recorder looked up and kept, and, when restoring,
     * the site's index popped and dispatched on by a {@code tableswitch}.
     */
    private static boolean shareRestores(MethodNode m) {
        AbstractInsnNode[] entry = entry(m);
        if (entry == null) {
            return false;
        }
        int recorder = ((VarInsnNode) entry[2]).var;
        MethodInsnNode popSite = (MethodInsnNode) entry[8];
        TableSwitchInsnNode dispatch = (TableSwitchInsnNode) entry[9];
        if (!outsideHandlers(m, dispatch)) {
            return false;
        }
        Map<String, List<Restore>> groups = new LinkedHashMap<>();
        Set<LabelNode> seen = new HashSet<>();
        for (int k = 0; k < dispatch.labels.size(); k++) {
            LabelNode l = dispatch.labels.get(k);
            if (!seen.add(l) || l == dispatch.dflt) {
                return false; // not the engine's one block per site
            }
            Restore r = restore(dispatch.min + k, l, recorder);
            if (r == null) {
                return false;
            }
            if (!r.pops.isEmpty()) {
                groups.computeIfAbsent(r.key, x -> new ArrayList<>()).add(r);
            }
        }
        int siteSlot = m.maxLocals;
        boolean changed = false;
        for (List<Restore> group : groups.values()) {
            if (saved(group, siteSlot) > 0 && sameFrames(group) && !fallsInto(group.get(0).label)) {
                share(m, dispatch, group, siteSlot);
                changed = true;
            }
        }
        if (changed) {
            InsnList keep = new InsnList();
            keep.add(new InsnNode(Opcodes.DUP));
            keep.add(new VarInsnNode(Opcodes.ISTORE, siteSlot));
            m.instructions.insert(popSite, keep);
            m.maxLocals = siteSlot + 1;
            m.maxStack = Math.max(m.maxStack, 2);
        }
        return changed;
    }

    /** Whether the sites of {@code group} are entered with the same frame (the dispatch's, as the engine writes them). */
    private static boolean sameFrames(List<Restore> group) {
        for (Restore r : group) {
            if (!slots(r.frame.local).equals(slots(group.get(0).frame.local))) {
                return false;
            }
        }
        return true;
    }

    /** Whether the code before {@code label} can continue into it (the shared pops are put there). */
    private static boolean fallsInto(LabelNode label) {
        AbstractInsnNode i = label.getPrevious();
        while (i != null && i.getOpcode() < 0) {
            i = i.getPrevious();
        }
        if (i == null) {
            return true;
        }
        int op = i.getOpcode();
        return !(op == Opcodes.GOTO || op == Opcodes.TABLESWITCH || op == Opcodes.LOOKUPSWITCH || op == Opcodes.ATHROW
                || op >= Opcodes.IRETURN && op <= Opcodes.RETURN);
    }

    /** The bytes sharing {@code group}'s pops saves: copies dropped less the second dispatch. */
    private static int saved(List<Restore> group, int siteSlot) {
        if (group.size() < 2) {
            return 0;
        }
        int pops = 0;
        for (Pop p : group.get(0).pops) {
            pops += p.bytes();
        }
        int dispatch = (siteSlot <= 255 ? 2 : 4) + 1 + 3 + 8 + 8 * group.size(); // iload, lookupswitch with padding
        return pops * (group.size() - 1) - dispatch;
    }

    /**
     * The engine's opening of {@code m}: {@code invokestatic Engine.current; dup; astore r; ifnull L;
     * aload r; getfield isRestoring; ifeq L; aload r; invokevirtual popInt; tableswitch}, or null.
     */
    private static AbstractInsnNode[] entry(MethodNode m) {
        AbstractInsnNode[] e = new AbstractInsnNode[10];
        AbstractInsnNode i = m.instructions.getFirst();
        for (int k = 0; k < e.length; k++) {
            while (i != null && i.getOpcode() < 0) {
                i = i.getNext();
            }
            if (i == null) {
                return null;
            }
            e[k] = i;
            i = i.getNext();
        }
        if (!(e[0] instanceof MethodInsnNode && ((MethodInsnNode) e[0]).owner.equals(Names.ENGINE)
                && ((MethodInsnNode) e[0]).name.equals("current") && e[1].getOpcode() == Opcodes.DUP
                && e[2].getOpcode() == Opcodes.ASTORE && e[3].getOpcode() == Opcodes.IFNULL
                && e[4].getOpcode() == Opcodes.ALOAD && e[5] instanceof FieldInsnNode
                && ((FieldInsnNode) e[5]).name.equals("isRestoring") && e[6].getOpcode() == Opcodes.IFEQ
                && e[7].getOpcode() == Opcodes.ALOAD && isRecorderCall(e[8], "popInt") && e[9] instanceof TableSwitchInsnNode)) {
            return null;
        }
        int r = ((VarInsnNode) e[2]).var;
        if (((VarInsnNode) e[4]).var != r || ((VarInsnNode) e[7]).var != r) {
            return null;
        }
        return e;
    }

    private static boolean isRecorderCall(AbstractInsnNode i, String name) {
        return i instanceof MethodInsnNode && i.getOpcode() == Opcodes.INVOKEVIRTUAL
                && ((MethodInsnNode) i).owner.equals(Names.STACK_RECORDER) && ((MethodInsnNode) i).name.equals(name);
    }

    /** Whether no exception handler covers the dispatch or the restore code after it. */
    private static boolean outsideHandlers(MethodNode m, TableSwitchInsnNode dispatch) {
        int from = m.instructions.indexOf(dispatch);
        int to = m.instructions.indexOf(dispatch.dflt);
        for (TryCatchBlockNode t : m.tryCatchBlocks) {
            if (m.instructions.indexOf(t.start) < to && m.instructions.indexOf(t.end) > from) {
                return false;
            }
        }
        return true;
    }

    /** Site {@code site}'s restore code at {@code label}: its frame and its leading pops into locals; null if not the engine's. */
    private static Restore restore(int site, LabelNode label, int recorder) {
        FrameNode frame = null;
        AbstractInsnNode i = label.getNext();
        while (i != null && i.getOpcode() < 0) {
            if (i instanceof FrameNode) {
                frame = (FrameNode) i;
            } else if (i instanceof LabelNode) {
                return null;
            }
            i = i.getNext();
        }
        if (frame == null || frame.type != Opcodes.F_NEW || !frame.stack.isEmpty()) {
            return null;
        }
        List<Pop> pops = new ArrayList<>();
        for (;;) {
            Pop p = pop(i, recorder);
            if (p == null) {
                break;
            }
            pops.add(p);
            i = p.insns[p.insns.length - 1].getNext();
        }
        return new Restore(site, label, frame, pops);
    }

    private static Pop pop(AbstractInsnNode i, int recorder) {
        if (!(i instanceof VarInsnNode) || i.getOpcode() != Opcodes.ALOAD || ((VarInsnNode) i).var != recorder) {
            return null;
        }
        AbstractInsnNode call = i.getNext();
        if (!(call instanceof MethodInsnNode) || call.getOpcode() != Opcodes.INVOKEVIRTUAL
                || !((MethodInsnNode) call).owner.equals(Names.STACK_RECORDER)) {
            return null;
        }
        int store;
        switch (((MethodInsnNode) call).name) {
            case "popInt":
                store = Opcodes.ISTORE;
                break;
            case "popLong":
                store = Opcodes.LSTORE;
                break;
            case "popFloat":
                store = Opcodes.FSTORE;
                break;
            case "popDouble":
                store = Opcodes.DSTORE;
                break;
            case "popObject":
                store = Opcodes.ASTORE;
                break;
            default:
                return null;
        }
        AbstractInsnNode next = call.getNext();
        if (store == Opcodes.ASTORE && next != null && next.getOpcode() == Opcodes.CHECKCAST) {
            AbstractInsnNode s = next.getNext();
            return s != null && s.getOpcode() == store ? new Pop(new AbstractInsnNode[] {i, call, next, s}) : null;
        }
        return next != null && next.getOpcode() == store ? new Pop(new AbstractInsnNode[] {i, call, next}) : null;
    }

    /**
     * Makes {@code group} share one copy of its pops: the dispatch sends each of its sites to that copy,
     * which ends in a second dispatch on the site's index (in {@code siteSlot}) to the rest of the site's
     * own code, whose frame now holds the restored locals.
     */
    private static void share(MethodNode m, TableSwitchInsnNode dispatch, List<Restore> group, int siteSlot) {
        Restore first = group.get(0);
        List<Object> entryLocals = withSite(slots(first.frame.local), siteSlot);
        List<Object> restored = new ArrayList<>(slots(first.frame.local));
        for (Pop p : first.pops) {
            store(restored, p.store().var, p.type());
        }
        List<Object> afterLocals = withSite(restored, siteSlot);

        LabelNode shared = new LabelNode();
        InsnList code = new InsnList();
        code.add(shared);
        code.add(new FrameNode(Opcodes.F_NEW, entryLocals.size(), entryLocals.toArray(), 0, new Object[0]));
        for (Pop p : first.pops) {
            for (AbstractInsnNode i : p.insns) {
                code.add(i.clone(Map.of()));
            }
        }
        code.add(new VarInsnNode(Opcodes.ILOAD, siteSlot));
        int[] keys = new int[group.size()];
        LabelNode[] labels = new LabelNode[group.size()];
        for (int k = 0; k < keys.length; k++) {
            keys[k] = group.get(k).site;
            labels[k] = group.get(k).label;
        }
        code.add(new LookupSwitchInsnNode(first.label, keys, labels));
        m.instructions.insertBefore(first.label, code);

        for (Restore r : group) {
            for (Pop p : r.pops) {
                for (AbstractInsnNode i : p.insns) {
                    m.instructions.remove(i);
                }
            }
            m.instructions.set(r.frame, new FrameNode(Opcodes.F_NEW, afterLocals.size(), afterLocals.toArray(), 0, new Object[0]));
            dispatch.labels.set(r.site - dispatch.min, shared);
        }
    }

    /** A frame's locals, one element per slot (the second slot of a long or double as {@code TOP}). */
    static List<Object> slots(List<Object> locals) {
        List<Object> out = new ArrayList<>();
        if (locals != null) {
            for (Object t : locals) {
                out.add(t);
                if (t == Opcodes.LONG || t == Opcodes.DOUBLE) {
                    out.add(Opcodes.TOP);
                }
            }
        }
        return out;
    }

    /** {@code slots} as a frame's locals with the site's index, an int, in {@code siteSlot}. */
    private static List<Object> withSite(List<Object> slots, int siteSlot) {
        List<Object> s = new ArrayList<>(slots);
        while (s.size() <= siteSlot) {
            s.add(Opcodes.TOP);
        }
        s.set(siteSlot, Opcodes.INTEGER);
        List<Object> out = new ArrayList<>();
        for (int k = 0; k < s.size(); k++) {
            Object t = s.get(k);
            out.add(t);
            if (t == Opcodes.LONG || t == Opcodes.DOUBLE) {
                k++;
            }
        }
        return out;
    }

    /** What the verifier knows of the locals after a store of {@code type} into {@code slot}. */
    private static void store(List<Object> slots, int slot, Object type) {
        int size = type == Opcodes.LONG || type == Opcodes.DOUBLE ? 2 : 1;
        while (slots.size() < slot + size) {
            slots.add(Opcodes.TOP);
        }
        if (slot > 0 && (slots.get(slot - 1) == Opcodes.LONG || slots.get(slot - 1) == Opcodes.DOUBLE)) {
            slots.set(slot - 1, Opcodes.TOP); // the store overwrote the second half of a long or double
        }
        slots.set(slot, type);
        if (size == 2) {
            slots.set(slot + 1, Opcodes.TOP);
        }
    }

    private static int varBytes(VarInsnNode v) {
        return v.var <= 3 ? 1 : v.var <= 255 ? 2 : 4;
    }
}
