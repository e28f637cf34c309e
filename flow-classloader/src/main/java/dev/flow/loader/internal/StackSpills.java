package dev.flow.loader.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.MultiANewArrayInsnNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicInterpreter;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.SourceInterpreter;
import org.objectweb.asm.tree.analysis.SourceValue;

/**
 * Keeps the JVM's helpful {@code NullPointerException} messages about values that sit on the operand
 * stack across a suspension point ({@code a[0] = f.get()} with {@code a} null, {@code other.text =
 * f.get()}, {@code this.text.concat(f.get())}).
 *
 * <p>The JVM names the source of a null by analysing the method's bytecode back to the instruction
 * that pushed it; where two paths meet with different pushers it names nothing. The engine's restore
 * path enters an instrumented method at its call sites with the stack rebuilt by its own code, so a
 * value below a call's operands has two pushers. Here such values leave the stack before the call's
 * operands are evaluated and come back, each from one instruction that names it as the original did,
 * where they are next used:
 * <ul>
 *   <li>a local still holding the value: popped, then loaded again from the same slot;
 *   <li>a constant: popped, then pushed again;
 *   <li>a local written meanwhile: kept in a fresh local carrying the original's name in the
 *       {@code LocalVariableTable};
 *   <li>a field, static field or array element ({@code this.text}, {@code C.NONE}, {@code parts[i]}):
 *       kept in a fresh local; if it is null where it is dereferenced, its expression is evaluated
 *       again and, if still null, the original instruction runs on it and throws the original message
 *       (if it changed meanwhile, the null is dereferenced with no "because" part);
 *   <li>the result of a call ({@code g().concat(f.get())}): kept in a fresh local; if it is null where
 *       it is dereferenced next, a {@code NullPointerException} with the message the JVM gives loaded
 *       normally ({@link NullMessages}) is thrown there (a result passed on or stored is not checked).
 * </ul>
 * Other values (arithmetic, objects under construction) and everything below them stay on the stack
 * as before. A site whose operands or uses are not straight-line code is left as is.
 * Stateless; used by the instrumenter under the class loader's initialisation.
 */
final class StackSpills {

    private static final int LOCAL = 0;
    private static final int CONSTANT = 1;
    private static final int NAMED = 2;
    private static final int EXPRESSION = 3;
    private static final int KEEP = 4;
    private static final int CALL = 5;
    /** How far a search walks from a call site, in instructions. */
    private static final int REACH = 400;

    private StackSpills() {
    }


    /** One value moved off the stack across a site. */
    private static final class Lifted {
        int kind;
        AbstractInsnNode source;
        BasicValue type;
        int size;
        String name;
        String desc;
        List<AbstractInsnNode> expression;
        AbstractInsnNode consumer;
        /** For {@link #CALL}: the JVM's message for the consumer meeting the null the call returned. */
        String message;
        int slot;
    }

    /** What is done at one call site. */
    private static final class Plan {
        int first;
        int reload;
        int end;
        int from;
        int to;
        Lifted[] values;
    }

    /** Moves the values below the operands of each call that {@code suspends} accepts, where it can. */
    static void liftAcrossSuspensions(MethodNode mn, Predicate<MethodInsnNode> suspends) {
        List<MethodInsnNode> sites = new ArrayList<>();
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i instanceof MethodInsnNode && suspends.test((MethodInsnNode) i)) {
                sites.add((MethodInsnNode) i);
            }
        }
        if (sites.isEmpty()) {
            return;
        }
        new Method(mn).lift(sites);
    }

    /** The analysis of one method. */
    private static final class Method {
        final MethodNode mn;
        final AbstractInsnNode[] insns;
        Frame<SourceValue>[] src;
        Frame<BasicValue>[] basic;
        final Map<LabelNode, List<Integer>> jumpsTo = new HashMap<>();
        final Set<LabelNode> handlers = new HashSet<>();

        Method(MethodNode mn) {
            this.mn = mn;
            this.insns = mn.instructions.toArray();
        }

        void lift(List<MethodInsnNode> sites) {
            if (!analyse(sites)) {
                return;
            }
            for (int k = 0; k < insns.length; k++) {
                AbstractInsnNode i = insns[k];
                int at = k;
                if (i instanceof JumpInsnNode) {
                    jumpsTo.computeIfAbsent(((JumpInsnNode) i).label, x -> new ArrayList<>()).add(k);
                } else if (i instanceof TableSwitchInsnNode) {
                    TableSwitchInsnNode s = (TableSwitchInsnNode) i;
                    jumpsTo.computeIfAbsent(s.dflt, x -> new ArrayList<>()).add(k);
                    s.labels.forEach(l -> jumpsTo.computeIfAbsent(l, x -> new ArrayList<>()).add(at));
                } else if (i instanceof LookupSwitchInsnNode) {
                    LookupSwitchInsnNode s = (LookupSwitchInsnNode) i;
                    jumpsTo.computeIfAbsent(s.dflt, x -> new ArrayList<>()).add(k);
                    s.labels.forEach(l -> jumpsTo.computeIfAbsent(l, x -> new ArrayList<>()).add(at));
                }
            }
            for (TryCatchBlockNode b : mn.tryCatchBlocks) {
                handlers.add(b.handler);
            }
            List<Plan> plans = new ArrayList<>();
            int taken = -1;
            for (MethodInsnNode c : sites) {
                Plan p = plan(mn.instructions.indexOf(c));
                if (p != null && p.first > taken) {
                    plans.add(p);
                    taken = p.end;
                }
            }
            for (Plan p : plans) {
                apply(p);
            }
        }

        /**
         * Analyses the method's types and, if a site has values below its operands, their sources;
         * {@code false} if nothing can be lifted (then the costlier source analysis is not run: the
         * two analyses agree on each instruction's stack height).
         */
        @SuppressWarnings("unchecked")
        private boolean analyse(List<MethodInsnNode> sites) {
            int saved = mn.maxStack;
            try {
                for (int stack = Math.max(saved, 4) + 8; stack <= 0xFFFF; stack *= 2) {
                    mn.maxStack = stack;
                    try {
                        basic = new Analyzer<>(new BasicInterpreter()).analyze("owner", mn);
                        if (!anyBelowOperands(sites)) {
                            return false;
                        }
                        src = new Analyzer<>(new SourceInterpreter()).analyze("owner", mn);
                        return true;
                    } catch (AnalyzerException e) {
                        if (e.getMessage() == null || !e.getMessage().contains("stack")) {
                            return false;
                        }
                    }
                }
                return false;
            } catch (RuntimeException e) {
                return false;
            } finally {
                mn.maxStack = saved;
            }
        }

        /** Whether a reachable site has values on the stack below its operands (what {@link #plan} lifts). */
        private boolean anyBelowOperands(List<MethodInsnNode> sites) {
            for (MethodInsnNode c : sites) {
                int k = mn.instructions.indexOf(c);
                if (k >= 0 && basic[k] != null && basic[k].getStackSize() - operands(c, null) > 0) {
                    return true;
                }
            }
            return false;
        }

        private int height(int k) {
            return src[k].getStackSize();
        }

        private int prevReal(int k) {
            for (int i = k - 1; i >= 0; i--) {
                if (insns[i].getOpcode() >= 0) {
                    return i;
                }
            }
            return -1;
        }

        private int nextReal(int k) {
            for (int i = k + 1; i < insns.length; i++) {
                if (insns[i].getOpcode() >= 0) {
                    return i;
                }
            }
            return -1;
        }

        private Plan plan(int site) {
            if (site < 0 || src[site] == null) {
                return null;
            }
            int level = height(site) - operands(insns[site], src[site]);
            if (level <= 0) {
                return null;
            }
            int first = site;
            for (int walked = 0; height(first) != level; walked++) {
                int p = prevReal(first);
                if (p < 0 || src[p] == null || walked > REACH) {
                    return null;
                }
                int low = height(p) - operands(insns[p], src[p]);
                if (low < level) {
                    level = low;
                    if (level <= 0) {
                        return null;
                    }
                }
                first = p;
            }
            int reload = -1;
            int end = -1;
            int q = nextReal(site);
            for (int walked = 0; ; walked++) {
                if (q < 0 || src[q] == null || walked > REACH) {
                    return null;
                }
                if (height(q) - operands(insns[q], src[q]) < level) {
                    reload = q;
                    end = q - 1;
                    break;
                }
                int op = insns[q].getOpcode();
                if (op == Opcodes.ATHROW || (op >= Opcodes.IRETURN && op <= Opcodes.RETURN)) {
                    int next = nextReal(q);
                    if (next < 0 || !jumpedToFrom(q, next, first)) {
                        end = q;
                        break;
                    }
                }
                q = nextReal(q);
            }
            int limit = reload >= 0 ? reload : end + 1;
            if (!straight(first, limit)) {
                return null;
            }
            Plan plan = new Plan();
            plan.first = first;
            plan.reload = reload;
            plan.end = reload >= 0 ? reload : end;
            plan.to = level;
            plan.values = new Lifted[level];
            int from = 0;
            for (int j = 0; j < level; j++) {
                Lifted v = classify(site, j, first, reload);
                plan.values[j] = v;
                if (v.kind == KEEP) {
                    from = j + 1;
                }
            }
            if (from >= level) {
                return null;
            }
            plan.from = from;
            if (reload >= 0) {
                Frame<SourceValue> at = src[reload];
                for (int j = level; j < at.getStackSize(); j++) {
                    if (!single(at.getStack(j)) || isUnderConstruction(first(at.getStack(j)))) {
                        return null;
                    }
                }
            }
            return plan;
        }

        /** Whether a label between {@code end} and {@code next} is jumped to from {@code [first, end]}. */
        private boolean jumpedToFrom(int end, int next, int first) {
            for (int i = end + 1; i < next; i++) {
                if (insns[i] instanceof LabelNode) {
                    for (int from : jumpsTo.getOrDefault((LabelNode) insns[i], List.of())) {
                        if (from >= first && from <= end) {
                            return true;
                        }
                    }
                }
            }
            return false;
        }

        /**
         * Whether code in {@code [first, limit)} is entered only at {@code first} (no handler, no jump
         * from elsewhere) and leaves only at {@code limit} or by a throw or return.
         */
        private boolean straight(int first, int limit) {
            for (int i = first; i < limit; i++) {
                AbstractInsnNode n = insns[i];
                if (n instanceof LabelNode && i > first) {
                    if (handlers.contains(n)) {
                        return false;
                    }
                    for (int from : jumpsTo.getOrDefault((LabelNode) n, List.of())) {
                        if (from < first || from >= limit) {
                            return false;
                        }
                    }
                } else if (n instanceof JumpInsnNode) {
                    int t = mn.instructions.indexOf(((JumpInsnNode) n).label);
                    if (t <= first || t >= limit) {
                        return false;
                    }
                } else if (n instanceof TableSwitchInsnNode || n instanceof LookupSwitchInsnNode
                        || n.getOpcode() == Opcodes.JSR || n.getOpcode() == Opcodes.RET) {
                    return false;
                }
            }
            return true;
        }

        private Lifted classify(int site, int level, int first, int reload) {
            Lifted v = new Lifted();
            SourceValue sv = original(src[site].getStack(level));
            v.type = basic[site].getStack(level);
            v.size = sv.getSize();
            v.kind = KEEP;
            if (!single(sv)) {
                return v;
            }
            AbstractInsnNode s = first(sv);
            v.source = s;
            int at = mn.instructions.indexOf(s);
            if (isConstant(s)) {
                v.kind = CONSTANT;
            } else if (s instanceof VarInsnNode && isLoad(s.getOpcode())) {
                int slot = ((VarInsnNode) s).var;
                if (reload < 0 || (!written(slot, at, reload) && sameName(slot, at, reload))) {
                    v.kind = LOCAL;
                } else {
                    LocalVariableNode lv = variable(slot, at);
                    if (lv != null) {
                        v.kind = NAMED;
                        v.name = lv.name;
                        v.desc = lv.desc;
                    }
                }
            } else if (called(s) != null && v.type.isReference() && reload >= 0) {
                AbstractInsnNode consumer = consumer(site, level);
                if (consumer == NONE) {
                    v.kind = CALL;
                    v.consumer = NONE;
                } else if (consumer != null && (!(consumer instanceof MethodInsnNode) || isNamedCall((MethodInsnNode) consumer))) {
                    v.kind = CALL;
                    v.consumer = consumer;
                    v.message = NullMessages.failedAction(consumer) + " because the return value of \""
                            + NullMessages.method(called(s)) + "\" is null";
                }
            } else if (v.type.isReference() && v.type != BasicValue.UNINITIALIZED_VALUE) {
                List<AbstractInsnNode> e = expression(s, 0);
                if (e != null && reload >= 0) {
                    AbstractInsnNode consumer = consumer(site, level);
                    if (consumer == NONE) {
                        v.kind = EXPRESSION;
                    } else if (consumer != null && unchanged(e, consumer)) {
                        v.kind = EXPRESSION;
                        v.expression = e;
                        v.consumer = consumer;
                    }
                }
            }
            return v;
        }

        /**
         * The call whose result {@code s} pushes, through {@code checkcast}s (the JVM names a cast value
         * by its source), if the JVM names it as written ({@link #isNamedCall}); else {@code null}.
         */
        private MethodInsnNode called(AbstractInsnNode s) {
            for (int n = 0; s.getOpcode() == Opcodes.CHECKCAST && n < 4; n++) {
                Frame<SourceValue> f = src[mn.instructions.indexOf(s)];
                if (f == null) {
                    return null;
                }
                SourceValue v = original(f.getStack(f.getStackSize() - 1));
                if (!single(v)) {
                    return null;
                }
                s = first(v);
            }
            return s instanceof MethodInsnNode && isNamedCall((MethodInsnNode) s) ? (MethodInsnNode) s : null;
        }

        /**
         * The value {@code v} copies if a {@code dup} pushed it: the JVM, unlike ASM's analysis, gives a
         * copy the source of the value copied.
         */
        private SourceValue original(SourceValue v) {
            for (int n = 0; single(v) && first(v).getOpcode() == Opcodes.DUP && n < 8; n++) {
                Frame<SourceValue> f = src[mn.instructions.indexOf(first(v))];
                if (f == null) {
                    break;
                }
                v = f.getStack(f.getStackSize() - 1);
            }
            return v;
        }

        /** Whether the locals {@code e} reads hold, at {@code use}, what they held and are named as they were. */
        private boolean unchanged(List<AbstractInsnNode> e, AbstractInsnNode use) {
            int u = mn.instructions.indexOf(use);
            for (AbstractInsnNode i : e) {
                if (i instanceof VarInsnNode) {
                    int slot = ((VarInsnNode) i).var;
                    int at = mn.instructions.indexOf(i);
                    if (written(slot, at, u) || !sameName(slot, at, u)) {
                        return false;
                    }
                }
            }
            return true;
        }

        /**
         * The instructions that evaluate {@code s} again with the same description: a chain of field
         * reads from a local or a static field, or an element of a local array at a local or constant
         * index; {@code null} for anything else.
         */
        private List<AbstractInsnNode> expression(AbstractInsnNode s, int depth) {
            if (depth > 4) {
                return null;
            }
            int op = s.getOpcode();
            if (op == Opcodes.GETSTATIC) {
                return new ArrayList<>(List.of(s));
            }
            int at = mn.instructions.indexOf(s);
            if (src[at] == null) {
                return null;
            }
            Frame<SourceValue> f = src[at];
            int top = f.getStackSize() - 1;
            if (op == Opcodes.GETFIELD) {
                SourceValue o = original(f.getStack(top));
                if (!single(o)) {
                    return null;
                }
                AbstractInsnNode os = first(o);
                List<AbstractInsnNode> out;
                if (os.getOpcode() == Opcodes.ALOAD) {
                    out = new ArrayList<>(List.of(os));
                } else if (os.getOpcode() == Opcodes.GETFIELD || os.getOpcode() == Opcodes.GETSTATIC) {
                    out = expression(os, depth + 1);
                } else {
                    return null;
                }
                if (out != null) {
                    out.add(s);
                }
                return out;
            }
            if (op == Opcodes.AALOAD) {
                SourceValue array = original(f.getStack(top - 1));
                SourceValue index = original(f.getStack(top));
                if (!single(array) || !single(index) || first(array).getOpcode() != Opcodes.ALOAD) {
                    return null;
                }
                AbstractInsnNode is = first(index);
                if (is.getOpcode() != Opcodes.ILOAD && !isConstant(is)) {
                    return null;
                }
                return new ArrayList<>(List.of(first(array), is, s));
            }
            return null;
        }

        /**
         * The instruction that dereferences the value at {@code level} below the operands of {@code
         * site}, {@link #NONE} if it is used without being dereferenced, {@code null} if that is not
         * found in straight-line code.
         */
        private AbstractInsnNode consumer(int site, int level) {
            int q = nextReal(site);
            for (int walked = 0, seen = site + 1; q >= 0 && walked < REACH; walked++) {
                if (src[q] == null) {
                    return null;
                }
                AbstractInsnNode n = insns[q];
                for (; seen < q; seen++) {
                    if (insns[seen] instanceof LabelNode && jumpsTo.containsKey(insns[seen])) {
                        return null;
                    }
                }
                int low = height(q) - operands(n, src[q]);
                if (low <= level) {
                    int op = n.getOpcode();
                    if (isStackOp(op) || n instanceof JumpInsnNode && low == level && op != Opcodes.IFNULL
                            && op != Opcodes.IFNONNULL) {
                        return null;
                    }
                    if (low == level && op == Opcodes.CHECKCAST) {
                        q = nextReal(q);
                        continue;
                    }
                    return low == level && dereferences(n) ? n : NONE;
                }
                if (n instanceof JumpInsnNode || n instanceof TableSwitchInsnNode || n instanceof LookupSwitchInsnNode
                        || op(n) == Opcodes.ATHROW || op(n) >= Opcodes.IRETURN && op(n) <= Opcodes.RETURN) {
                    return null;
                }
                q = nextReal(q);
            }
            return null;
        }

        private boolean written(int slot, int from, int to) {
            for (int i = from + 1; i < to; i++) {
                AbstractInsnNode n = insns[i];
                if (n instanceof VarInsnNode && isStore(n.getOpcode()) && ((VarInsnNode) n).var == slot
                        || n instanceof IincInsnNode && ((IincInsnNode) n).var == slot) {
                    return true;
                }
            }
            return false;
        }

        private LocalVariableNode variable(int slot, int at) {
            if (mn.localVariables == null) {
                return null;
            }
            for (LocalVariableNode lv : mn.localVariables) {
                if (lv.index == slot && mn.instructions.indexOf(lv.start) < at && at < mn.instructions.indexOf(lv.end)) {
                    return lv;
                }
            }
            return null;
        }

        private boolean sameName(int slot, int a, int b) {
            LocalVariableNode x = variable(slot, a);
            LocalVariableNode y = variable(slot, b);
            return x == null ? y == null : y != null && x.name.equals(y.name);
        }

        private void apply(Plan p) {
            InsnList out = new InsnList();
            for (int j = p.to - 1; j >= p.from; j--) {
                Lifted v = p.values[j];
                if (v.kind == LOCAL || v.kind == CONSTANT) {
                    out.add(new InsnNode(v.size == 2 ? Opcodes.POP2 : Opcodes.POP));
                } else {
                    v.slot = newLocal(v.size);
                    out.add(new VarInsnNode(type(v.type).getOpcode(Opcodes.ISTORE), v.slot));
                }
            }
            mn.instructions.insertBefore(insns[p.first], out);
            if (p.reload < 0) {
                return;
            }
            Frame<BasicValue> at = basic[p.reload];
            InsnList back = new InsnList();
            int[] stash = stash(at, p.to, at.getStackSize(), back);
            for (int j = p.from; j < p.to; j++) {
                Lifted v = p.values[j];
                if (v.kind == LOCAL || v.kind == CONSTANT) {
                    back.add(v.source.clone(null));
                } else if (v.kind == NAMED) {
                    LabelNode start = new LabelNode();
                    LabelNode end = new LabelNode();
                    back.add(start);
                    back.add(new VarInsnNode(type(v.type).getOpcode(Opcodes.ILOAD), v.slot));
                    back.add(end);
                    mn.localVariables.add(new LocalVariableNode(v.name, v.desc, null, start, end, v.slot));
                } else {
                    back.add(new VarInsnNode(Opcodes.ALOAD, v.slot));
                }
            }
            unstash(at, p.to, stash, back);
            mn.instructions.insertBefore(insns[p.reload], back);
            for (int j = p.from; j < p.to; j++) {
                if (p.values[j].kind == CALL) {
                    if (p.values[j].consumer != NONE) {
                        throwIfNull(p.values[j], j);
                    }
                } else if (p.values[j].consumer != null) {
                    guard(p.values[j], j);
                }
            }
        }

        /**
         * Before the consumer of {@code v}: if {@code v} is null, evaluates its expression again and,
         * if that is still null, runs the consumer on it, which throws the original message.
         */
        private void guard(Lifted v, int level) {
            Frame<BasicValue> at = basic[indexIn(v.consumer)];
            InsnList g = new InsnList();
            int[] stash = stash(at, level + 1, at.getStackSize(), g);
            LabelNode cont = new LabelNode();
            LabelNode race = new LabelNode();
            g.add(new InsnNode(Opcodes.DUP));
            g.add(new JumpInsnNode(Opcodes.IFNONNULL, cont));
            g.add(new InsnNode(Opcodes.POP));
            for (AbstractInsnNode i : v.expression) {
                g.add(i.clone(null));
            }
            g.add(new InsnNode(Opcodes.DUP));
            g.add(new JumpInsnNode(Opcodes.IFNONNULL, race));
            unstash(at, level + 1, stash, g);
            g.add(v.consumer.clone(null));
            g.add(new InsnNode(Opcodes.ACONST_NULL));
            g.add(new InsnNode(Opcodes.ATHROW));
            g.add(race);
            g.add(new InsnNode(Opcodes.POP));
            g.add(new InsnNode(Opcodes.ACONST_NULL));
            g.add(cont);
            unstash(at, level + 1, stash, g);
            mn.instructions.insertBefore(v.consumer, g);
        }

        /**
         * Before the consumer of the call result {@code v}: if it is null, throws the {@code
         * NullPointerException} the JVM throws there loaded normally, with its message (the call cannot
         * be made again, and the JVM would name only the instruction that pushed the value back).
         */
        private void throwIfNull(Lifted v, int level) {
            Frame<BasicValue> at = basic[indexIn(v.consumer)];
            InsnList g = new InsnList();
            int[] stash = stash(at, level + 1, at.getStackSize(), g);
            LabelNode cont = new LabelNode();
            g.add(new InsnNode(Opcodes.DUP));
            g.add(new JumpInsnNode(Opcodes.IFNONNULL, cont));
            g.add(new TypeInsnNode(Opcodes.NEW, "java/lang/NullPointerException"));
            g.add(new InsnNode(Opcodes.DUP));
            g.add(new LdcInsnNode(v.message));
            g.add(new MethodInsnNode(Opcodes.INVOKESPECIAL, "java/lang/NullPointerException", "<init>", "(Ljava/lang/String;)V",
                    false));
            g.add(new InsnNode(Opcodes.ATHROW));
            g.add(cont);
            unstash(at, level + 1, stash, g);
            mn.instructions.insertBefore(v.consumer, g);
        }

        private int indexIn(AbstractInsnNode n) {
            for (int i = 0; i < insns.length; i++) {
                if (insns[i] == n) {
                    return i;
                }
            }
            throw new IllegalStateException("instruction not in the analysed method");
        }

        /** Stores the stack values at levels {@code [from, to)} of {@code at}, top first, into fresh locals. */
        private int[] stash(Frame<BasicValue> at, int from, int to, InsnList out) {
            int[] slots = new int[to - from];
            for (int j = to - 1; j >= from; j--) {
                BasicValue b = at.getStack(j);
                slots[j - from] = newLocal(b.getSize());
                out.add(new VarInsnNode(type(b).getOpcode(Opcodes.ISTORE), slots[j - from]));
            }
            return slots;
        }

        private void unstash(Frame<BasicValue> at, int from, int[] slots, InsnList out) {
            for (int j = from; j < from + slots.length; j++) {
                out.add(new VarInsnNode(type(at.getStack(j)).getOpcode(Opcodes.ILOAD), slots[j - from]));
            }
        }

        private int newLocal(int size) {
            int slot = mn.maxLocals;
            mn.maxLocals += size;
            return slot;
        }
    }

    /**
     * Whether the JVM would name {@code c} as the program wrote it: not a call the loader made up (its
     * {@code dev.flow} helpers, a dispatch through a marker interface, a method renamed for the flow).
     */
    private static boolean isNamedCall(MethodInsnNode c) {
        return !c.owner.startsWith("dev/flow/internal/") && !c.owner.startsWith(Dispatch.PACKAGE)
                && !c.name.endsWith(Names.FLOW_SUFFIX) && !c.name.startsWith("<");
    }

    /** {@link Method#consumer}'s answer for a value used without being dereferenced. */
    private static final AbstractInsnNode NONE = new InsnNode(Opcodes.NOP);

    private static Type type(BasicValue b) {
        Type t = b.getType();
        return t == null ? Type.getObjectType("java/lang/Object") : t;
    }

    private static int op(AbstractInsnNode n) {
        return n.getOpcode();
    }

    private static boolean single(SourceValue v) {
        return v.insns.size() == 1;
    }

    private static AbstractInsnNode first(SourceValue v) {
        return v.insns.iterator().next();
    }

    private static boolean isUnderConstruction(AbstractInsnNode s) {
        return s.getOpcode() == Opcodes.NEW || isStackOp(s.getOpcode());
    }

    private static boolean isLoad(int op) {
        return op >= Opcodes.ILOAD && op <= Opcodes.ALOAD;
    }

    private static boolean isStore(int op) {
        return op >= Opcodes.ISTORE && op <= Opcodes.ASTORE;
    }

    private static boolean isStackOp(int op) {
        return op >= Opcodes.POP && op <= Opcodes.SWAP;
    }

    private static boolean isConstant(AbstractInsnNode s) {
        int op = s.getOpcode();
        return op >= Opcodes.ACONST_NULL && op <= Opcodes.SIPUSH
                || op == Opcodes.LDC && !(((LdcInsnNode) s).cst instanceof org.objectweb.asm.ConstantDynamic);
    }

    /** Whether {@code n} throws {@code NullPointerException} when its deepest operand is null. */
    private static boolean dereferences(AbstractInsnNode n) {
        int op = n.getOpcode();
        switch (op) {
            case Opcodes.INVOKEVIRTUAL:
            case Opcodes.INVOKEINTERFACE:
                return true;
            case Opcodes.INVOKESPECIAL:
                return !((MethodInsnNode) n).name.equals("<init>");
            case Opcodes.GETFIELD:
            case Opcodes.PUTFIELD:
            case Opcodes.ARRAYLENGTH:
            case Opcodes.ATHROW:
            case Opcodes.MONITORENTER:
            case Opcodes.MONITOREXIT:
                return true;
            default:
                return op >= Opcodes.IALOAD && op <= Opcodes.SALOAD || op >= Opcodes.IASTORE && op <= Opcodes.SASTORE;
        }
    }

    /** The number of stack values {@code n} reads (stack operations: the values they may touch). */
    static int operands(AbstractInsnNode n, Frame<SourceValue> f) {
        int op = n.getOpcode();
        if (op < 0) {
            return 0;
        }
        if (n instanceof MethodInsnNode) {
            return Type.getArgumentTypes(((MethodInsnNode) n).desc).length + (op == Opcodes.INVOKESTATIC ? 0 : 1);
        }
        if (n instanceof InvokeDynamicInsnNode) {
            return Type.getArgumentTypes(((InvokeDynamicInsnNode) n).desc).length;
        }
        if (n instanceof MultiANewArrayInsnNode) {
            return ((MultiANewArrayInsnNode) n).dims;
        }
        if (n instanceof FieldInsnNode) {
            return op == Opcodes.GETSTATIC ? 0 : op == Opcodes.PUTFIELD ? 2 : 1;
        }
        switch (op) {
            case Opcodes.POP:
            case Opcodes.DUP:
                return Math.min(1, f.getStackSize());
            case Opcodes.POP2:
            case Opcodes.DUP2:
                return values(f, 2);
            case Opcodes.DUP_X1:
            case Opcodes.SWAP:
                return values(f, 2);
            case Opcodes.DUP_X2:
            case Opcodes.DUP2_X1:
                return values(f, 3);
            case Opcodes.DUP2_X2:
                return values(f, 4);
            default:
                break;
        }
        if (n instanceof VarInsnNode) {
            return isStore(op) ? 1 : 0;
        }
        if (n instanceof LdcInsnNode || n instanceof IntInsnNode && op != Opcodes.NEWARRAY || n instanceof IincInsnNode) {
            return 0;
        }
        if (n instanceof JumpInsnNode) {
            return op == Opcodes.GOTO || op == Opcodes.JSR ? 0 : op >= Opcodes.IF_ICMPEQ && op <= Opcodes.IF_ACMPNE ? 2 : 1;
        }
        if (n instanceof TableSwitchInsnNode || n instanceof LookupSwitchInsnNode) {
            return 1;
        }
        if (op == Opcodes.NEW) {
            return 0;
        }
        if (op == Opcodes.ANEWARRAY || op == Opcodes.CHECKCAST || op == Opcodes.INSTANCEOF || op == Opcodes.NEWARRAY) {
            return 1;
        }
        return insnOperands(op);
    }

    private static int values(Frame<SourceValue> f, int slots) {
        int n = 0;
        for (int j = f.getStackSize() - 1; j >= 0 && slots > 0; j--) {
            slots -= f.getStack(j).getSize();
            n++;
        }
        return n;
    }

    /** Operands of the zero-operand-byte instructions ({@code InsnNode}). */
    private static int insnOperands(int op) {
        if (op == Opcodes.NOP || op >= Opcodes.ACONST_NULL && op <= Opcodes.DCONST_1 || op == Opcodes.RETURN) {
            return 0;
        }
        if (op >= Opcodes.IALOAD && op <= Opcodes.SALOAD) {
            return 2;
        }
        if (op >= Opcodes.IASTORE && op <= Opcodes.SASTORE) {
            return 3;
        }
        if (op >= Opcodes.IADD && op <= Opcodes.DREM || op >= Opcodes.ISHL && op <= Opcodes.LXOR
                || op >= Opcodes.LCMP && op <= Opcodes.DCMPG) {
            return 2;
        }
        return 1;
    }
}
