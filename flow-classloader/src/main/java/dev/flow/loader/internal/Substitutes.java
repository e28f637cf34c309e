package dev.flow.loader.internal;

import dev.flow.loader.InstrumentationException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Puts Flow's suspendable versions of JDK classes ({@code dev.flow.jdk}) in place of the JDK's in
 * loaded code, before the analysis: each {@code new} of a substituted JDK class (and its constructor
 * call) creates Flow's subclass instead, and an in-scope class extending a substituted JDK class
 * extends Flow's subclass instead (its constructors' and {@code super.m()} calls follow); calls of
 * {@code DataInputStream}'s and {@code DataOutputStream}'s final reads and writes go to {@code
 * FlowData}'s static forms, since a subclass cannot override them. Flow's classes then join the scope,
 * so the loader defines and instruments its own copies: their waits are suspension points like the
 * code that uses them.
 *
 * <p>Every substitute declares every public constructor of the class it replaces, with the same
 * descriptor. Types in signatures, casts, {@code instanceof} and class literals stay the JDK's:
 * the substitute is a subtype. Stateless; used under the instrumenter's construction only.
 */
final class Substitutes {

    private static final String PKG = "dev/flow/jdk/";

    /** JDK class to the Flow class created in its place. */
    static final Map<String, String> BY_JDK_CLASS = Map.ofEntries(
            Map.entry("java/util/concurrent/locks/ReentrantLock", PKG + "FlowReentrantLock"),
            Map.entry("java/util/concurrent/locks/ReentrantReadWriteLock", PKG + "FlowReentrantReadWriteLock"),
            Map.entry("java/io/BufferedReader", PKG + "FlowBufferedReader"),
            Map.entry("java/io/InputStreamReader", PKG + "FlowInputStreamReader"),
            Map.entry("java/io/BufferedWriter", PKG + "FlowBufferedWriter"),
            Map.entry("java/io/OutputStreamWriter", PKG + "FlowOutputStreamWriter"),
            Map.entry("java/io/BufferedInputStream", PKG + "FlowBufferedInputStream"),
            Map.entry("java/io/PushbackInputStream", PKG + "FlowPushbackInputStream"),
            Map.entry("java/io/DataInputStream", PKG + "FlowDataInputStream"),
            Map.entry("java/io/BufferedOutputStream", PKG + "FlowBufferedOutputStream"),
            Map.entry("java/io/DataOutputStream", PKG + "FlowDataOutputStream"),
            Map.entry("java/io/LineNumberReader", PKG + "FlowLineNumberReader"),
            Map.entry("java/io/PrintWriter", PKG + "FlowPrintWriter"),
            Map.entry("java/io/PrintStream", PKG + "FlowPrintStream"),
            Map.entry("java/io/FilterOutputStream", PKG + "FlowFilterOutputStream"));

    private static final String DATA = PKG + "FlowData";
    private static final String DATA_INPUT = "java/io/DataInput";
    private static final String DATA_OUTPUT = "java/io/DataOutput";
    private static final String DATA_INPUT_STREAM = "java/io/DataInputStream";
    private static final String DATA_OUTPUT_STREAM = "java/io/DataOutputStream";
    /** The final reads of {@code DataInputStream} that are {@code DataInput}'s (name + descriptor). */
    private static final Set<String> DATA_INPUT_FINALS = Set.of("readFully([B)V", "readFully([BII)V", "skipBytes(I)I",
            "readBoolean()Z", "readByte()B", "readUnsignedByte()I", "readShort()S", "readUnsignedShort()I", "readChar()C",
            "readInt()I", "readLong()J", "readFloat()F", "readDouble()D", "readLine()Ljava/lang/String;",
            "readUTF()Ljava/lang/String;");
    /** {@code DataInputStream}'s final {@code read}s (not {@code DataInput}'s). */
    private static final Set<String> DATA_INPUT_STREAM_FINALS = Set.of("read([B)I", "read([BII)I");
    /** The final writes of {@code DataOutputStream}, all {@code DataOutput}'s. */
    private static final Set<String> DATA_OUTPUT_FINALS = Set.of("writeBoolean(Z)V", "writeByte(I)V", "writeShort(I)V",
            "writeChar(I)V", "writeInt(I)V", "writeLong(J)V", "writeFloat(F)V", "writeDouble(D)V",
            "writeBytes(Ljava/lang/String;)V", "writeChars(Ljava/lang/String;)V", "writeUTF(Ljava/lang/String;)V");

    /** Substitutes whose {@code lock} (the {@code Reader}'s or {@code Writer}'s) is a {@code FlowMonitor}. */
    private static final Set<String> WITH_FLOW_MONITOR = Set.of(PKG + "FlowBufferedReader", PKG + "FlowInputStreamReader",
            PKG + "FlowBufferedWriter", PKG + "FlowOutputStreamWriter", PKG + "FlowLineNumberReader", PKG + "FlowPrintWriter");
    private static final String MONITOR = PKG + "FlowMonitor";
    /** JDK classes whose in-scope direct subclasses get a {@code FlowMonitor} as their {@code lock}. */
    private static final Set<String> LOCKED_JDK_BASES = Set.of("java/io/Reader", "java/io/Writer");

    private Substitutes() {
    }

    /** Whether {@code internalName} is one of Flow's substitutes (never rewritten itself). */
    static boolean isSubstitute(String internalName) {
        return internalName.startsWith(PKG);
    }

    /**
     * Rewrites {@code cn} in place; returns whether anything changed. {@code superOf} gives the
     * superclass of an in-scope class ({@code null} for any other), to find in-scope subclasses of
     * {@code DataInputStream} and {@code DataOutputStream} named as call owners.
     */
    static boolean apply(ClassNode cn, Function<String, String> superOf) {
        if (isSubstitute(cn.name)) {
            return false;
        }
        boolean changed = false;
        String oldSuper = cn.superName;
        String newSuper = BY_JDK_CLASS.get(oldSuper);
        if (newSuper != null) {
            cn.superName = newSuper;
            changed = true;
            if (WITH_FLOW_MONITOR.contains(newSuper) && mayTakeFlowMonitor(cn)) {
                takeFlowMonitor(cn);
            }
        } else if (LOCKED_JDK_BASES.contains(oldSuper) && mayTakeFlowMonitor(cn)) {
            lockWithFlowMonitor(cn);
            takeFlowMonitor(cn);
            changed = true;
        }
        for (MethodNode mn : cn.methods) {
            for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
                if (i.getOpcode() == Opcodes.NEW) {
                    TypeInsnNode t = (TypeInsnNode) i;
                    String sub = BY_JDK_CLASS.get(t.desc);
                    if (sub != null) {
                        t.desc = sub;
                        changed = true;
                    }
                } else if (i instanceof MethodInsnNode) {
                    MethodInsnNode c = (MethodInsnNode) i;
                    if (redirectFinal(c, superOf)) {
                        changed = true;
                        continue;
                    }
                    if (i.getOpcode() != Opcodes.INVOKESPECIAL) {
                        continue;
                    }
                    String sub = BY_JDK_CLASS.get(c.owner);
                    if (sub != null && (c.name.equals("<init>") || c.owner.equals(oldSuper))) {
                        c.owner = sub;
                        changed = true;
                    }
                }
            }
        }
        return changed;
    }

    /**
     * Turns a call of a final read of {@code DataInputStream} or write of {@code DataOutputStream}
     * (through the class, an in-scope subclass or the {@code DataInput}/{@code DataOutput} interface)
     * into the static {@code FlowData} method of the same name taking the receiver first; the static
     * {@code DataInputStream.readUTF(DataInput)} becomes {@code FlowData.readUTFOf}.
     */
    private static boolean redirectFinal(MethodInsnNode c, Function<String, String> superOf) {
        String key = c.name + c.desc;
        String receiver;
        if (c.getOpcode() == Opcodes.INVOKESTATIC) {
            if (!c.owner.equals(DATA_INPUT_STREAM) || !key.equals("readUTF(Ljava/io/DataInput;)Ljava/lang/String;")) {
                return false;
            }
            c.owner = DATA;
            c.name = "readUTFOf";
            return true;
        }
        if (c.name.equals("<init>")) {
            return false;
        }
        if (DATA_INPUT_FINALS.contains(key) && (c.owner.equals(DATA_INPUT) || extendsClass(c.owner, DATA_INPUT_STREAM, superOf))) {
            receiver = DATA_INPUT;
        } else if (DATA_INPUT_STREAM_FINALS.contains(key) && extendsClass(c.owner, DATA_INPUT_STREAM, superOf)) {
            receiver = DATA_INPUT_STREAM;
        } else if (DATA_OUTPUT_FINALS.contains(key)
                && (c.owner.equals(DATA_OUTPUT) || extendsClass(c.owner, DATA_OUTPUT_STREAM, superOf))) {
            receiver = DATA_OUTPUT;
        } else {
            return false;
        }
        c.desc = "(L" + receiver + ";" + c.desc.substring(1);
        c.setOpcode(Opcodes.INVOKESTATIC);
        c.owner = DATA;
        c.itf = false;
        return true;
    }

    /** Whether {@code owner} is {@code jdkClass}, its substitute, or an in-scope class extending either. */
    private static boolean extendsClass(String owner, String jdkClass, Function<String, String> superOf) {
        String sub = BY_JDK_CLASS.get(jdkClass);
        for (String n = owner; n != null; n = superOf.apply(n)) {
            if (n.equals(jdkClass) || n.equals(sub)) {
                return true;
            }
        }
        return false;
    }

    /**
     * In a direct subclass of {@code java.io.Reader} or {@code java.io.Writer} (Commons Net's {@code
     * DotTerminatedMessageWriter}), makes {@code lock} a {@code FlowMonitor} of the object's own: the super
     * constructor {@code (Object lock)} gets {@code FlowMonitor.of(lock)} (a new monitor; {@code null} stays
     * {@code null}, for the JDK's {@code NullPointerException}), the no-argument one {@code
     * FlowMonitor.create()} through the {@code (Object)} constructor.
     */
    private static void lockWithFlowMonitor(ClassNode cn) {
        for (MethodNode mn : cn.methods) {
            if (!mn.name.equals("<init>")) {
                continue;
            }
            for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
                if (i.getOpcode() != Opcodes.INVOKESPECIAL) {
                    continue;
                }
                MethodInsnNode c = (MethodInsnNode) i;
                if (!c.owner.equals(cn.superName) || !c.name.equals("<init>")) {
                    continue;
                }
                if (c.desc.equals("()V")) {
                    mn.instructions.insertBefore(c, new MethodInsnNode(Opcodes.INVOKESTATIC, MONITOR, "create",
                            "()Ljava/lang/Object;", false));
                    c.desc = "(Ljava/lang/Object;)V";
                } else if (c.desc.equals("(Ljava/lang/Object;)V")) {
                    mn.instructions.insertBefore(c, new MethodInsnNode(Opcodes.INVOKESTATIC, MONITOR, "of",
                            "(Ljava/lang/Object;)Ljava/lang/Object;", false));
                }
            }
        }
    }

    /**
     * Whether {@code synchronized (lock)} blocks of {@code cn} may take a {@code FlowMonitor} instead of the
     * monitor: the class never declares or assigns {@code lock} and never waits or notifies (which needs the
     * monitor itself).
     */
    private static boolean mayTakeFlowMonitor(ClassNode cn) {
        for (org.objectweb.asm.tree.FieldNode f : cn.fields) {
            if (f.name.equals("lock")) {
                return false;
            }
        }
        for (MethodNode mn : cn.methods) {
            for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
                if (i.getOpcode() == Opcodes.PUTFIELD && ((FieldInsnNode) i).name.equals("lock")
                        || i instanceof MethodInsnNode && (((MethodInsnNode) i).name.equals("wait")
                                || ((MethodInsnNode) i).name.startsWith("notify"))) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * In a subclass of a reader or writer substitute, turns {@code synchronized (lock)} blocks (javac's
     * {@code aload 0; getfield lock; dup; astore n; monitorenter} and the {@code aload n; monitorexit}
     * that end them) into taking and releasing the {@code FlowMonitor} that {@code lock} then is, which
     * the flow owns: such a block no longer pins. Only where {@link #mayTakeFlowMonitor} allows it.
     *
     * <p>javac's cleanup handler of such a block covers its own monitor exit ({@code [H, E) -> H, any}:
     * {@code astore; aload; monitorexit}), harmless for a {@code monitorexit}, which HotSpot's C1 does not
     * treat as throwing; a call there would be an exception edge from the handler's own code back to it,
     * which C1 cannot join ("error while joining with exception handler"), leaving the method interpreted
     * until C2 takes it. {@code FlowMonitor.exit} never throws, so that entry leaves the call out.
     */
    private static void takeFlowMonitor(ClassNode cn) {
        for (MethodNode mn : cn.methods) {
            List<AbstractInsnNode> exits = new ArrayList<>();
            Set<Integer> slots = new java.util.HashSet<>();
            for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
                if (i.getOpcode() == Opcodes.MONITORENTER && isLockField(i.getPrevious())) {
                    slots.add(((VarInsnNode) i.getPrevious()).var);
                    mn.instructions.set(i, new MethodInsnNode(Opcodes.INVOKESTATIC, MONITOR, "enter", "(Ljava/lang/Object;)V", false));
                }
            }
            for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
                AbstractInsnNode p = i.getPrevious();
                if (i.getOpcode() == Opcodes.MONITOREXIT && p != null && p.getOpcode() == Opcodes.ALOAD
                        && slots.contains(((VarInsnNode) p).var)) {
                    AbstractInsnNode exit = new MethodInsnNode(Opcodes.INVOKESTATIC, MONITOR, "exit", "(Ljava/lang/Object;)V", false);
                    mn.instructions.set(i, exit);
                    exits.add(exit);
                    i = exit;
                }
            }
            for (AbstractInsnNode exit : exits) {
                uncoverFromOwnHandler(mn, exit);
            }
        }
    }

    /** Leaves {@code call} out of every entry whose handler lies in the entry's own range and that covers it. */
    private static void uncoverFromOwnHandler(MethodNode mn, AbstractInsnNode call) {
        int at = mn.instructions.indexOf(call);
        List<TryCatchBlockNode> table = new ArrayList<>();
        for (TryCatchBlockNode t : mn.tryCatchBlocks) {
            int start = mn.instructions.indexOf(t.start);
            int end = mn.instructions.indexOf(t.end);
            int handler = mn.instructions.indexOf(t.handler);
            if (at < start || at >= end || handler < start || handler >= end) {
                table.add(t);
                continue;
            }
            LabelNode before = new LabelNode();
            LabelNode after = new LabelNode();
            mn.instructions.insertBefore(call, before);
            mn.instructions.insert(call, after);
            Instrumenter.addCovering(table, t, t.start, before, t.handler);
            Instrumenter.addCovering(table, t, after, t.end, t.handler);
        }
        mn.tryCatchBlocks = table;
    }

    /** Whether {@code astore} is javac's {@code aload 0; getfield lock; dup; astore n} of a synchronized block. */
    private static boolean isLockField(AbstractInsnNode astore) {
        if (astore == null || astore.getOpcode() != Opcodes.ASTORE) {
            return false;
        }
        AbstractInsnNode dup = astore.getPrevious();
        AbstractInsnNode get = dup == null ? null : dup.getPrevious();
        AbstractInsnNode self = get == null ? null : get.getPrevious();
        return dup != null && dup.getOpcode() == Opcodes.DUP && get != null && get.getOpcode() == Opcodes.GETFIELD
                && ((FieldInsnNode) get).name.equals("lock") && ((FieldInsnNode) get).desc.equals("Ljava/lang/Object;")
                && self != null && self.getOpcode() == Opcodes.ALOAD && ((VarInsnNode) self).var == 0;
    }

    /**
     * Reads the classes of {@code dev.flow.jdk} (substitutes and what they use, nested classes
     * included) from {@code parent}, for the loader to define.
     *
     * @throws InstrumentationException if one is missing (flow-core not on the parent's class path)
     */
    static Map<String, byte[]> read(ClassLoader parent) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        for (String name : Scanner.classesUnder(parent, PKG.substring(0, PKG.length() - 1))) {
            if (name.endsWith("/package-info")) {
                continue;
            }
            byte[] b = Hierarchy.readBytes(parent, name);
            if (b == null) {
                throw new InstrumentationException(name.replace('/', '.'), "", "", "Flow's substitute class is not visible"
                        + " to the parent class loader");
            }
            out.put(name, b);
        }
        return out;
    }
}
