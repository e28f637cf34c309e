package dev.flow.loader.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Makes the loops of an instrumented method single-entry again, so that the JIT compilers optimise them as
 * loops. The engine's restore code jumps from the method's entry straight to the call it resumes; when that
 * call is inside a loop, the loop gains a second entry besides its header (an irreducible loop), which
 * HotSpot's compilers do not treat as a loop, and on which C1 gave up on pgjdbc's {@code
 * QueryExecutorImpl.sendQuery} ("block join failed": interpreted until C2 compiled it).
 *
 * <p>Here a resumption enters every loop around its call through the loop's header. The entry's dispatch
 * keeps the site's index in a fresh local (-1 outside a resumption) and sends a site inside loops to a block,
 * one per outermost header, that sets each local that header's frame holds to zero or {@code null} and jumps
 * there. Every such header begins with a test of that local (one load and one branch per turn of the loop);
 * during a resumption it goes on to the next header inward, through a block that sets that header's locals,
 * or, from the innermost, to the engine's restore code of the site, which now begins by setting the local
 * back to -1 and then sets every local the call needs from the recorder as before. No code of the method
 * runs between the entry and the restore code, as before; the recorder sees the same calls in the same order.
 * A method that this would take past {@link HugeMethods#LIMIT} stays as it is.
 *
 * <p>Code of the engine's shape only (its entry and restore code, with {@link HugeMethodShrink}'s shared
 * restores), with stack map frames, whose loops are single-entry without the restore code; any other
 * method stays as it is. Stateless; thread-safe.
 */
final class ReducibleLoops {

    /** The site's index during a resumption, -1 otherwise: never a site (the engine counts from 0). */
    private static final int NOT_RESUMING = -1;

    private ReducibleLoops() {
    }

    /** {@code enhanced} with the loops of its methods made single-entry, or {@code enhanced} itself if none changed. */
    static byte[] apply(byte[] enhanced) {
        ClassNode read = new ClassNode();
        new ClassReader(enhanced).accept(read, ClassReader.SKIP_FRAMES | ClassReader.SKIP_DEBUG);
        return apply(enhanced, read);
    }

    /**
     * {@link #apply(byte[])} given the class already read ({@code read}: frames and debug information may be
     * skipped). Most classes have no call inside a loop, which is found from it before any other work.
     */
    static byte[] apply(byte[] enhanced, ClassNode read) {
        if (read.methods.stream().noneMatch(ReducibleLoops::resumesInsideABackwardSpan)) {
            return enhanced;
        }
        return apply(enhanced, new HashSet<>());
    }

    /** {@link #apply(byte[])} leaving the methods named in {@code left} (name and descriptor) as they are. */
    private static byte[] apply(byte[] enhanced, Set<String> left) {
        ClassNode cn = new ClassNode();
        new ClassReader(enhanced).accept(cn, ClassReader.EXPAND_FRAMES);
        if ((cn.version & 0xFFFF) < Opcodes.V1_6) {
            return enhanced; // no stack map frames to keep right
        }
        List<String> changed = new ArrayList<>();
        for (MethodNode m : cn.methods) {
            Plan plan = left.contains(m.name + m.desc) ? null : plan(m);
            if (plan != null) {
                plan.rewrite();
                changed.add(m.name + m.desc);
            }
        }
        if (changed.isEmpty()) {
            return enhanced;
        }
        ClassWriter w = new ClassWriter(0);
        cn.accept(w);
        byte[] out = w.toByteArray();
        Map<String, Integer> before = HugeMethods.codeLengths(enhanced);
        Map<String, Integer> after = HugeMethods.codeLengths(out);
        for (String m : changed) {
            if (after.get(m) > HugeMethods.LIMIT && before.get(m) <= HugeMethods.LIMIT) {
                // Past the size HotSpot compiles: loops with two entries compiled beat loops run interpreted.
                left.add(m);
                return apply(enhanced, left);
            }
        }
        return out;
    }

    /**
     * Whether every loop of {@code m} is entered only through its header, the engine's restore code included
     * (what the JIT compilers need to see a loop).
     */
    static boolean singleEntryLoops(MethodNode m) {
        return new Graph(m, null).reducible();
    }

    // ---- the engine's entry ---------------------------------------------------------------------

    /** The engine's opening: the dispatch on the site's index, and the slot {@link HugeMethodShrink} keeps it in (or -1). */
    private static final class Opening {
        final TableSwitchInsnNode dispatch;
        final int siteSlot;

        Opening(TableSwitchInsnNode dispatch, int siteSlot) {
            this.dispatch = dispatch;
            this.siteSlot = siteSlot;
        }
    }

    /**
     * {@code invokestatic Engine.current; dup; astore r; ifnull L; aload r; getfield isRestoring; ifeq L;
     * aload r; invokevirtual popInt; [dup; istore s;] tableswitch}, or null.
     */
    private static Opening opening(MethodNode m) {
        List<AbstractInsnNode> e = new ArrayList<>();
        for (AbstractInsnNode i = m.instructions.getFirst(); i != null && e.size() < 12; i = i.getNext()) {
            if (i.getOpcode() >= 0) {
                e.add(i);
            }
        }
        if (e.size() < 10 || !(e.get(0) instanceof MethodInsnNode) || !((MethodInsnNode) e.get(0)).owner.equals(Names.ENGINE)
                || !((MethodInsnNode) e.get(0)).name.equals("current") || e.get(1).getOpcode() != Opcodes.DUP
                || e.get(2).getOpcode() != Opcodes.ASTORE || e.get(3).getOpcode() != Opcodes.IFNULL
                || e.get(4).getOpcode() != Opcodes.ALOAD || !(e.get(5) instanceof FieldInsnNode)
                || !((FieldInsnNode) e.get(5)).name.equals("isRestoring") || e.get(6).getOpcode() != Opcodes.IFEQ
                || e.get(7).getOpcode() != Opcodes.ALOAD || !(e.get(8) instanceof MethodInsnNode)
                || !((MethodInsnNode) e.get(8)).owner.equals(Names.STACK_RECORDER) || !((MethodInsnNode) e.get(8)).name.equals("popInt")) {
            return null;
        }
        int r = ((VarInsnNode) e.get(2)).var;
        if (((VarInsnNode) e.get(4)).var != r || ((VarInsnNode) e.get(7)).var != r) {
            return null;
        }
        if (e.get(9) instanceof TableSwitchInsnNode) {
            return new Opening((TableSwitchInsnNode) e.get(9), -1);
        }
        if (e.size() >= 12 && e.get(9).getOpcode() == Opcodes.DUP && e.get(10).getOpcode() == Opcodes.ISTORE
                && e.get(11) instanceof TableSwitchInsnNode) {
            return new Opening((TableSwitchInsnNode) e.get(11), ((VarInsnNode) e.get(10)).var);
        }
        return null;
    }

    // ---- control flow ---------------------------------------------------------------------------

    /** The method's control flow between its basic blocks, from its first. */
    private static final class Graph {
        final AbstractInsnNode[] insns;
        final InsnList list;
        /** Each instruction's block (labels, frames and lines included). */
        final int[] blockOf;
        /** Each block's first instruction. */
        final int[] firsts;
        final int[][] succ;
        /** Blocks reachable from the first. */
        final BitSet reached = new BitSet();
        /** Immediate dominators (of reached blocks). */
        int[] idom;
        /** Reached blocks in reverse postorder, and each block's place in it. */
        int[] rpo;
        int[] order;
        /** Edges {u, v} to a block v still on the depth-first stack when u was visited. */
        final List<int[]> retreating = new ArrayList<>();

        /** The graph of {@code m}; {@code dispatch}, when given, leads to its default only (the code of normal runs). */
        Graph(MethodNode m, TableSwitchInsnNode dispatch) {
            list = m.instructions;
            insns = list.toArray();
            int n = insns.length;
            BitSet leaders = new BitSet();
            leaders.set(0);
            for (int k = 0; k < n; k++) {
                AbstractInsnNode x = insns[k];
                int op = x.getOpcode();
                if (op == Opcodes.JSR || op == Opcodes.RET) {
                    throw new IllegalStateException("jsr/ret");
                }
                for (LabelNode l : targets(x)) {
                    leaders.set(list.indexOf(l));
                }
                if (x instanceof JumpInsnNode || x instanceof TableSwitchInsnNode || x instanceof LookupSwitchInsnNode
                        || op >= Opcodes.IRETURN && op <= Opcodes.RETURN || op == Opcodes.ATHROW) {
                    leaders.set(k + 1);
                }
            }
            for (TryCatchBlockNode t : m.tryCatchBlocks) {
                leaders.set(list.indexOf(t.start));
                leaders.set(list.indexOf(t.end));
                leaders.set(list.indexOf(t.handler));
            }
            leaders.clear(n, Math.max(n, leaders.length()));
            firsts = leaders.stream().toArray();
            int blocks = firsts.length;
            blockOf = new int[n];
            for (int b = 0; b < blocks; b++) {
                int end = b + 1 < blocks ? firsts[b + 1] : n;
                java.util.Arrays.fill(blockOf, firsts[b], end, b);
            }
            List<BitSet> out = new ArrayList<>(blocks);
            for (int b = 0; b < blocks; b++) {
                BitSet to = new BitSet();
                out.add(to);
                int last = (b + 1 < blocks ? firsts[b + 1] : n) - 1;
                AbstractInsnNode x = insns[last];
                int op = x.getOpcode();
                for (LabelNode l : x == dispatch ? List.of(dispatch.dflt) : targets(x)) {
                    to.set(blockOf[list.indexOf(l)]);
                }
                boolean goesOn = !(op == Opcodes.GOTO || x instanceof TableSwitchInsnNode || x instanceof LookupSwitchInsnNode
                        || op >= Opcodes.IRETURN && op <= Opcodes.RETURN || op == Opcodes.ATHROW);
                if (goesOn && b + 1 < blocks) {
                    to.set(b + 1);
                }
            }
            for (TryCatchBlockNode t : m.tryCatchBlocks) {
                int handler = blockOf[list.indexOf(t.handler)];
                for (int b = blockOf[list.indexOf(t.start)]; b < blocks && firsts[b] < list.indexOf(t.end); b++) {
                    out.get(b).set(handler);
                }
            }
            succ = new int[blocks][];
            for (int b = 0; b < blocks; b++) {
                succ[b] = out.get(b).stream().toArray();
            }
            search();
            dominators();
        }

        /** The labels {@code x} may jump to. */
        private static List<LabelNode> targets(AbstractInsnNode x) {
            if (x instanceof JumpInsnNode) {
                return List.of(((JumpInsnNode) x).label);
            }
            if (x instanceof TableSwitchInsnNode) {
                List<LabelNode> all = new ArrayList<>(((TableSwitchInsnNode) x).labels);
                all.add(((TableSwitchInsnNode) x).dflt);
                return all;
            }
            if (x instanceof LookupSwitchInsnNode) {
                List<LabelNode> all = new ArrayList<>(((LookupSwitchInsnNode) x).labels);
                all.add(((LookupSwitchInsnNode) x).dflt);
                return all;
            }
            return List.of();
        }

        /** Whether instruction {@code k} is in a reached block. */
        boolean reachedInsn(int k) {
            return reached.get(blockOf[k]);
        }

        /** Depth-first from the first instruction: what is reached, the reverse postorder, the retreating edges. */
        private void search() {
            int n = succ.length;
            int[] post = new int[n];
            int count = 0;
            int[] next = new int[n];
            BitSet onStack = new BitSet();
            Deque<Integer> stack = new ArrayDeque<>();
            if (n > 0) {
                stack.push(0);
                reached.set(0);
                onStack.set(0);
            }
            while (!stack.isEmpty()) {
                int u = stack.peek();
                if (next[u] < succ[u].length) {
                    int v = succ[u][next[u]++];
                    if (onStack.get(v)) {
                        retreating.add(new int[] {u, v});
                    } else if (!reached.get(v)) {
                        reached.set(v);
                        onStack.set(v);
                        stack.push(v);
                    }
                } else {
                    stack.pop();
                    onStack.clear(u);
                    post[count++] = u;
                }
            }
            rpo = new int[count];
            order = new int[n];
            for (int k = 0; k < count; k++) {
                rpo[k] = post[count - 1 - k];
                order[rpo[k]] = k;
            }
        }

        /** Immediate dominators of the reached nodes (Cooper, Harvey and Kennedy's iteration). */
        private void dominators() {
            int n = succ.length;
            List<List<Integer>> pred = predecessors();
            idom = new int[n];
            java.util.Arrays.fill(idom, -1);
            if (rpo.length == 0) {
                return;
            }
            idom[rpo[0]] = rpo[0];
            boolean changed = true;
            while (changed) {
                changed = false;
                for (int k = 1; k < rpo.length; k++) {
                    int b = rpo[k];
                    int d = -1;
                    for (int p : pred.get(b)) {
                        if (idom[p] >= 0) {
                            d = d < 0 ? p : intersect(p, d);
                        }
                    }
                    if (d != idom[b]) {
                        idom[b] = d;
                        changed = true;
                    }
                }
            }
        }

        private int intersect(int a, int b) {
            while (a != b) {
                while (order[a] > order[b]) {
                    a = idom[a];
                }
                while (order[b] > order[a]) {
                    b = idom[b];
                }
            }
            return a;
        }

        List<List<Integer>> predecessors() {
            List<List<Integer>> pred = new ArrayList<>();
            for (int k = 0; k < succ.length; k++) {
                pred.add(new ArrayList<>(2));
            }
            for (int u = reached.nextSetBit(0); u >= 0; u = reached.nextSetBit(u + 1)) {
                for (int v : succ[u]) {
                    pred.get(v).add(u);
                }
            }
            return pred;
        }

        boolean dominates(int a, int b) {
            for (int x = b; ; x = idom[x]) {
                if (x == a) {
                    return true;
                }
                if (idom[x] == x || idom[x] < 0) {
                    return false;
                }
            }
        }

        /** Whether every retreating edge goes to a node that dominates its source: every loop has one entry. */
        boolean reducible() {
            for (int[] e : retreating) {
                if (!dominates(e[1], e[0])) {
                    return false;
                }
            }
            return true;
        }

        /** The loops, by header: each header's body, the nodes that reach one of its back edges without passing it. */
        Map<Integer, BitSet> loops() {
            List<List<Integer>> pred = predecessors();
            Map<Integer, BitSet> loops = new LinkedHashMap<>();
            for (int[] e : retreating) {
                BitSet body = loops.computeIfAbsent(e[1], h -> {
                    BitSet b = new BitSet();
                    b.set(h);
                    return b;
                });
                Deque<Integer> work = new ArrayDeque<>();
                if (!body.get(e[0])) {
                    body.set(e[0]);
                    work.push(e[0]);
                }
                while (!work.isEmpty()) {
                    for (int p : pred.get(work.pop())) {
                        if (!body.get(p)) {
                            body.set(p);
                            work.push(p);
                        }
                    }
                }
            }
            return loops;
        }
    }

    // ---- the rewriting --------------------------------------------------------------------------

    /** What to change in one method, all of it checked before anything changes. */
    private static final class Plan {
        final MethodNode m;
        final Opening opening;
        /** Per site (dispatch case): the loop headers around its call, outermost first. */
        final Map<Integer, List<LabelNode>> chains = new LinkedHashMap<>();
        /** Per header: its frame. */
        final Map<LabelNode, FrameNode> frames = new HashMap<>();
        final int resumeSlot;

        Plan(MethodNode m, Opening opening) {
            this.m = m;
            this.opening = opening;
            this.resumeSlot = m.maxLocals;
        }

        void rewrite() {
            TableSwitchInsnNode dispatch = opening.dispatch;
            // The resumption's site in a local of its own: -1 from the start, the site's index from the dispatch
            // until the site's restore code begins. The shrinking's copy of the index lives as long.
            for (AbstractInsnNode i : m.instructions) {
                if (i instanceof FrameNode) {
                    FrameNode f = (FrameNode) i;
                    List<Object> slots = with(HugeMethodShrink.slots(f.local), resumeSlot, Opcodes.INTEGER);
                    f.local = locals(opening.siteSlot >= 0 ? with(slots, opening.siteSlot, Opcodes.INTEGER) : slots);
                }
            }
            InsnList start = new InsnList();
            start.add(intConstant(NOT_RESUMING));
            start.add(new VarInsnNode(Opcodes.ISTORE, resumeSlot));
            if (opening.siteSlot >= 0) {
                start.add(intConstant(NOT_RESUMING));
                start.add(new VarInsnNode(Opcodes.ISTORE, opening.siteSlot));
            }
            m.instructions.insert(start);
            InsnList keep = new InsnList();
            keep.add(new InsnNode(Opcodes.DUP));
            keep.add(new VarInsnNode(Opcodes.ISTORE, resumeSlot));
            m.instructions.insertBefore(dispatch, keep);
            for (LabelNode restore : new HashSet<>(dispatch.labels)) {
                InsnList reset = new InsnList();
                reset.add(intConstant(NOT_RESUMING));
                reset.add(new VarInsnNode(Opcodes.ISTORE, resumeSlot));
                m.instructions.insert(frameAt(restore), reset);
            }

            InsnList blocks = new InsnList();
            Map<LabelNode, LabelNode> primes = new HashMap<>();
            Map<List<LabelNode>, LabelNode> steps = new HashMap<>();
            Map<FrameNode, Map<Integer, LabelNode>> headerCases = new LinkedHashMap<>();
            for (Map.Entry<Integer, List<LabelNode>> c : chains.entrySet()) {
                int site = c.getKey();
                List<LabelNode> chain = c.getValue();
                LabelNode restore = dispatch.labels.get(site - dispatch.min);
                LabelNode outermost = chain.get(0);
                LabelNode prime = primes.get(outermost);
                if (prime == null) {
                    // From the entry to the outermost header, its frame's locals set.
                    prime = new LabelNode();
                    primes.put(outermost, prime);
                    List<Object> from = HugeMethodShrink.slots(frameAt(restore).local);
                    blocks.add(prime);
                    blocks.add(frame(from));
                    blocks.add(defaults(from, HugeMethodShrink.slots(frames.get(outermost).local)));
                    blocks.add(new JumpInsnNode(Opcodes.GOTO, outermost));
                }
                dispatch.labels.set(site - dispatch.min, prime);
                for (int k = 0; k < chain.size(); k++) {
                    LabelNode header = chain.get(k);
                    LabelNode target = restore;
                    if (k + 1 < chain.size()) {
                        List<LabelNode> pair = List.of(header, chain.get(k + 1));
                        target = steps.get(pair);
                        if (target == null) {
                            // From a header to the next one inward, its frame's locals set.
                            target = new LabelNode();
                            steps.put(pair, target);
                            List<Object> at = HugeMethodShrink.slots(frames.get(header).local);
                            blocks.add(target);
                            blocks.add(frame(at));
                            blocks.add(defaults(at, HugeMethodShrink.slots(frames.get(chain.get(k + 1)).local)));
                            blocks.add(new JumpInsnNode(Opcodes.GOTO, chain.get(k + 1)));
                        }
                    }
                    headerCases.computeIfAbsent(frames.get(header), h -> new LinkedHashMap<>()).put(site, target);
                }
            }
            for (Map.Entry<FrameNode, Map<Integer, LabelNode>> h : headerCases.entrySet()) {
                FrameNode at = h.getKey();
                LabelNode body = new LabelNode();
                int[] keys = h.getValue().keySet().stream().mapToInt(Integer::intValue).sorted().toArray();
                LabelNode[] targets = new LabelNode[keys.length];
                for (int k = 0; k < keys.length; k++) {
                    targets[k] = h.getValue().get(keys[k]);
                }
                InsnList test = new InsnList();
                test.add(new VarInsnNode(Opcodes.ILOAD, resumeSlot));
                test.add(new JumpInsnNode(Opcodes.IFLT, body));
                test.add(new VarInsnNode(Opcodes.ILOAD, resumeSlot));
                test.add(new LookupSwitchInsnNode(body, keys, targets));
                test.add(body);
                test.add(frame(HugeMethodShrink.slots(at.local)));
                m.instructions.insert(at, test);
            }
            m.instructions.add(blocks);
            m.maxLocals = resumeSlot + 1;
            m.maxStack = Math.max(m.maxStack, 2);
        }
    }

    /** What to change in {@code m}, or null if it stays as it is. */
    private static Plan plan(MethodNode m) {
        if (m.instructions.size() == 0 || !resumesInsideABackwardSpan(m)) {
            return null;
        }
        Opening opening = opening(m);
        if (opening == null) {
            return null;
        }
        Graph normal;
        try {
            normal = new Graph(m, opening.dispatch);
        } catch (IllegalStateException jsrOrRet) {
            return null;
        }
        if (!normal.reducible()) {
            return null; // loops with two entries already: nothing here makes them single-entry
        }
        Map<Integer, BitSet> loops = normal.loops();
        if (loops.isEmpty()) {
            return null;
        }
        Plan plan = new Plan(m, opening);
        TableSwitchInsnNode dispatch = opening.dispatch;
        Map<LabelNode, List<LabelNode>> chainOfRestore = new IdentityHashMap<>();
        for (int k = 0; k < dispatch.labels.size(); k++) {
            int site = dispatch.min + k;
            LabelNode restore = dispatch.labels.get(k);
            int call = resumedAt(normal, restore, site);
            if (call < 0) {
                return null;
            }
            List<LabelNode> chain = chain(normal, loops, normal.blockOf[call]);
            if (chain == null) {
                return null;
            }
            List<LabelNode> before = chainOfRestore.putIfAbsent(restore, chain);
            if (before != null && !before.equals(chain)) {
                return null; // restore code shared by sites in different loops would enter them in the middle
            }
            if (!chain.isEmpty()) {
                plan.chains.put(site, chain);
            }
        }
        if (plan.chains.isEmpty()) {
            return null;
        }
        if (!frames(m) || !checks(plan)) {
            return null;
        }
        return plan;
    }

    /**
     * The headers of the loops around block {@code call}, outermost first, or null if one is not a label with a
     * frame. Headers at one place (loops that begin together) count once, as the innermost: entering one enters all.
     */
    private static List<LabelNode> chain(Graph g, Map<Integer, BitSet> loops, int call) {
        List<Map.Entry<Integer, BitSet>> around = new ArrayList<>();
        for (Map.Entry<Integer, BitSet> e : loops.entrySet()) {
            if (e.getValue().get(call)) {
                around.add(e);
            }
        }
        around.sort((a, b) -> Integer.compare(b.getValue().cardinality(), a.getValue().cardinality()));
        List<LabelNode> chain = new ArrayList<>();
        List<FrameNode> frames = new ArrayList<>();
        for (Map.Entry<Integer, BitSet> e : around) {
            AbstractInsnNode h = g.insns[g.firsts[e.getKey()]];
            FrameNode f = h instanceof LabelNode ? frameAt((LabelNode) h) : null;
            if (f == null) {
                return null;
            }
            int last = frames.size() - 1;
            if (last >= 0 && frames.get(last) == f) {
                chain.set(last, (LabelNode) h);
            } else {
                chain.add((LabelNode) h);
                frames.add(f);
            }
        }
        return chain;
    }

    /** Whether every frame is a full one (read with {@code EXPAND_FRAMES}) and no try block covers the first instruction. */
    private static boolean frames(MethodNode m) {
        for (AbstractInsnNode i : m.instructions) {
            if (i instanceof FrameNode && ((FrameNode) i).type != Opcodes.F_NEW) {
                return false;
            }
        }
        AbstractInsnNode first = m.instructions.getFirst();
        for (TryCatchBlockNode t : m.tryCatchBlocks) {
            if (t.start == first) {
                return false;
            }
        }
        return true;
    }

    /** Fills the plan's header frames; whether every block it writes verifies (frames the blocks can meet). */
    private static boolean checks(Plan plan) {
        TableSwitchInsnNode dispatch = plan.opening.dispatch;
        for (Map.Entry<Integer, List<LabelNode>> c : plan.chains.entrySet()) {
            for (LabelNode h : c.getValue()) {
                FrameNode f = frameAt(h);
                if (f == null || f.stack != null && !f.stack.isEmpty() || !plainTypes(f.local)) {
                    return false;
                }
                plan.frames.put(h, f);
            }
        }
        List<Object> entryLocals = null;
        for (Map.Entry<Integer, List<LabelNode>> c : plan.chains.entrySet()) {
            int site = c.getKey();
            List<LabelNode> chain = c.getValue();
            LabelNode restore = dispatch.labels.get(site - dispatch.min);
            FrameNode entry = frameAt(restore);
            if (entry == null || entry.stack != null && !entry.stack.isEmpty() || !plainTypes(entry.local)) {
                return false;
            }
            List<Object> entrySlots = HugeMethodShrink.slots(entry.local);
            if (plan.opening.siteSlot >= 0) {
                entrySlots = with(entrySlots, plan.opening.siteSlot, Opcodes.INTEGER);
            }
            if (entryLocals != null && !entryLocals.equals(entrySlots)) {
                return false; // the entry's blocks are shared by the sites: one frame for all
            }
            entryLocals = entrySlots;
            List<Object> state = HugeMethodShrink.slots(entry.local);
            if (defaultsOrNull(state, HugeMethodShrink.slots(plan.frames.get(chain.get(0)).local)) == null) {
                return false;
            }
            for (int k = 0; k + 1 < chain.size(); k++) {
                if (defaultsOrNull(HugeMethodShrink.slots(plan.frames.get(chain.get(k)).local), HugeMethodShrink.slots(plan.frames.get(chain.get(k + 1)).local)) == null) {
                    return false;
                }
            }
            List<Object> last = HugeMethodShrink.slots(plan.frames.get(chain.get(chain.size() - 1)).local);
            List<Object> restoring = HugeMethodShrink.slots(entry.local);
            if (plan.opening.siteSlot >= 0) {
                last = with(last, plan.opening.siteSlot, Opcodes.INTEGER);
                restoring = with(restoring, plan.opening.siteSlot, Opcodes.INTEGER);
            }
            if (!assignable(last, restoring)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether one of the calls {@code m}'s restore code resumes lies between an instruction and an earlier one it
     * jumps back to (or a handler before the end of its try block): the calls a loop can be around. Cheap, and
     * true whenever {@link #plan} may change the method (an unusual restore code counts as such a call).
     */
    private static boolean resumesInsideABackwardSpan(MethodNode m) {
        Opening opening = opening(m);
        if (opening == null) {
            return false;
        }
        InsnList insns = m.instructions;
        List<int[]> spans = new ArrayList<>();
        for (AbstractInsnNode i : insns) {
            List<LabelNode> targets = i instanceof JumpInsnNode ? List.of(((JumpInsnNode) i).label)
                    : i instanceof TableSwitchInsnNode && i != opening.dispatch ? ((TableSwitchInsnNode) i).labels
                    : i instanceof LookupSwitchInsnNode ? ((LookupSwitchInsnNode) i).labels : List.of();
            int at = insns.indexOf(i);
            for (LabelNode l : targets) {
                if (insns.indexOf(l) < at) {
                    spans.add(new int[] {insns.indexOf(l), at});
                }
            }
        }
        for (TryCatchBlockNode t : m.tryCatchBlocks) {
            if (insns.indexOf(t.handler) < insns.indexOf(t.end)) {
                spans.add(new int[] {insns.indexOf(t.handler), insns.indexOf(t.end)});
            }
        }
        if (spans.isEmpty()) {
            return false;
        }
        TableSwitchInsnNode dispatch = opening.dispatch;
        for (int k = 0; k < dispatch.labels.size(); k++) {
            int call = calledAfterRestore(insns, dispatch.labels.get(k), dispatch.min + k);
            for (int[] span : spans) {
                if (call < 0 || span[0] <= call && call <= span[1]) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Where site {@code site}'s restore code, from {@code restore}, ends with a {@code goto}: its index, or -1. */
    private static int calledAfterRestore(InsnList insns, LabelNode restore, int site) {
        AbstractInsnNode x = restore;
        for (int steps = 0; x != null && steps < 100_000; steps++) {
            if (x.getOpcode() == Opcodes.GOTO) {
                return insns.indexOf(((JumpInsnNode) x).label);
            }
            if (x instanceof LookupSwitchInsnNode) {
                int at = ((LookupSwitchInsnNode) x).keys.indexOf(site);
                if (at < 0) {
                    return -1;
                }
                x = ((LookupSwitchInsnNode) x).labels.get(at);
            } else if (x instanceof JumpInsnNode || x instanceof TableSwitchInsnNode || x.getOpcode() == Opcodes.ATHROW
                    || x.getOpcode() >= Opcodes.IRETURN && x.getOpcode() <= Opcodes.RETURN) {
                return -1;
            } else {
                x = x.getNext();
            }
        }
        return -1;
    }

    /**
     * The first instruction of normal code that site {@code site}'s restore code, from {@code restore}, reaches:
     * straight on, through {@code goto}s and the site's case of {@link HugeMethodShrink}'s second dispatch; -1 if
     * it branches any other way.
     */
    private static int resumedAt(Graph g, LabelNode restore, int site) {
        AbstractInsnNode x = restore;
        for (int steps = 0; x != null && steps < 100_000; steps++) {
            int k = g.list.indexOf(x);
            if (g.reachedInsn(k)) {
                return k;
            }
            int op = x.getOpcode();
            if (op == Opcodes.GOTO) {
                x = ((JumpInsnNode) x).label;
            } else if (x instanceof LookupSwitchInsnNode) {
                LookupSwitchInsnNode s = (LookupSwitchInsnNode) x;
                int at = s.keys.indexOf(site);
                if (at < 0) {
                    return -1;
                }
                x = s.labels.get(at);
            } else if (x instanceof JumpInsnNode || x instanceof TableSwitchInsnNode || op == Opcodes.ATHROW
                    || op >= Opcodes.IRETURN && op <= Opcodes.RETURN) {
                return -1;
            } else {
                x = x.getNext();
            }
        }
        return -1;
    }

    // ---- frames ---------------------------------------------------------------------------------

    /** The frame of the code at {@code label}: the first frame after it before any instruction, or null. */
    private static FrameNode frameAt(LabelNode label) {
        for (AbstractInsnNode i = label.getNext(); i != null && i.getOpcode() < 0; i = i.getNext()) {
            if (i instanceof FrameNode) {
                return (FrameNode) i;
            }
        }
        return null;
    }

    /** Whether the types are ones a default value can stand for (no uninitialised object). */
    private static boolean plainTypes(List<Object> locals) {
        if (locals == null) {
            return true;
        }
        for (Object t : locals) {
            if (t instanceof LabelNode || t == Opcodes.UNINITIALIZED_THIS) {
                return false;
            }
        }
        return true;
    }

    /** Whether locals of {@code from}'s types (one entry per slot) may enter code whose frame has {@code to}'s. */
    private static boolean assignable(List<Object> from, List<Object> to) {
        for (int j = 0; j < to.size(); j++) {
            Object t = to.get(j);
            if (t == Opcodes.TOP) {
                continue;
            }
            Object f = j < from.size() ? from.get(j) : Opcodes.TOP;
            if (!(f.equals(t) || f == Opcodes.NULL && t instanceof String)) {
                return false;
            }
        }
        return true;
    }

    /** Stores of zero or null that take locals of {@code from}'s types to ones {@code to}'s frame accepts. */
    private static InsnList defaults(List<Object> from, List<Object> to) {
        InsnList code = defaultsOrNull(from, to);
        if (code == null) {
            throw new IllegalStateException("checked before");
        }
        return code;
    }

    private static InsnList defaultsOrNull(List<Object> from, List<Object> to) {
        List<Object> state = new ArrayList<>(from);
        InsnList code = new InsnList();
        for (int j = 0; j < to.size(); j++) {
            Object t = to.get(j);
            Object f = j < state.size() ? state.get(j) : Opcodes.TOP;
            if (t == Opcodes.TOP || f.equals(t) || f == Opcodes.NULL && t instanceof String) {
                continue;
            }
            if (t == Opcodes.INTEGER) {
                code.add(new InsnNode(Opcodes.ICONST_0));
                code.add(new VarInsnNode(Opcodes.ISTORE, j));
            } else if (t == Opcodes.FLOAT) {
                code.add(new InsnNode(Opcodes.FCONST_0));
                code.add(new VarInsnNode(Opcodes.FSTORE, j));
            } else if (t == Opcodes.LONG) {
                code.add(new InsnNode(Opcodes.LCONST_0));
                code.add(new VarInsnNode(Opcodes.LSTORE, j));
            } else if (t == Opcodes.DOUBLE) {
                code.add(new InsnNode(Opcodes.DCONST_0));
                code.add(new VarInsnNode(Opcodes.DSTORE, j));
            } else if (t == Opcodes.NULL || t instanceof String) {
                code.add(new InsnNode(Opcodes.ACONST_NULL));
                code.add(new VarInsnNode(Opcodes.ASTORE, j));
                t = Opcodes.NULL;
            } else {
                return null;
            }
            state = with(state, j, t);
        }
        return assignable(state, to) ? code : null;
    }

    /** One entry per slot back to a frame's locals. */
    private static List<Object> locals(List<Object> slots) {
        List<Object> out = new ArrayList<>();
        for (int k = 0; k < slots.size(); k++) {
            Object t = slots.get(k);
            out.add(t);
            if (t == Opcodes.LONG || t == Opcodes.DOUBLE) {
                k++;
            }
        }
        return out;
    }

    /** {@code slots} after a store of {@code type} into {@code slot}, as the verifier sees them. */
    private static List<Object> with(List<Object> slots, int slot, Object type) {
        List<Object> s = new ArrayList<>(slots);
        int size = type == Opcodes.LONG || type == Opcodes.DOUBLE ? 2 : 1;
        while (s.size() < slot + size) {
            s.add(Opcodes.TOP);
        }
        if (slot > 0 && (s.get(slot - 1) == Opcodes.LONG || s.get(slot - 1) == Opcodes.DOUBLE)) {
            s.set(slot - 1, Opcodes.TOP);
        }
        if (s.get(slot) == Opcodes.LONG || s.get(slot) == Opcodes.DOUBLE) {
            s.set(slot + 1, Opcodes.TOP);
        }
        s.set(slot, type);
        if (size == 2) {
            s.set(slot + 1, Opcodes.TOP);
        }
        return s;
    }

    private static FrameNode frame(List<Object> slots) {
        List<Object> locals = locals(slots);
        return new FrameNode(Opcodes.F_NEW, locals.size(), locals.toArray(), 0, new Object[0]);
    }

    private static AbstractInsnNode intConstant(int value) {
        if (value >= -1 && value <= 5) {
            return new InsnNode(Opcodes.ICONST_0 + value);
        }
        if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
            return new IntInsnNode(value <= Byte.MAX_VALUE && value >= Byte.MIN_VALUE ? Opcodes.BIPUSH : Opcodes.SIPUSH, value);
        }
        return new LdcInsnNode(value);
    }
}
