package dev.flow.loader.internal;

import dev.flow.internal.Pins;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiPredicate;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Call sites that are followed rather than suspended, and the null-receiver guard of rewritten calls.
 *
 * <ul>
 *   <li>Owner-based lock operations ({@code Lock.lock}, {@code lockInterruptibly}, {@code tryLock},
 *       {@code unlock}) stay as they are and are followed by a call to {@code Locks}, which records
 *       what the flow holds, so that an await while a lock is held pins the flow (lock site
 *       registered with {@link Pins.Reason#LOCK}); an acquisition that can wait ({@code lock}, {@code
 *       lockInterruptibly}, timed {@code tryLock}) is preceded by {@code Locks.acquiring}, which reports
 *       it when a lock made outside the scope is held by another thread ({@link Pins.Reason#CONTENDED_LOCK}).
 *   <li>Blocking calls without a suspendable form ({@code Object.wait}, {@code Condition.await*},
 *       {@code CyclicBarrier.await}, {@code Exchanger.exchange}, {@code
 *       Phaser.awaitAdvanceInterruptibly}, {@code Thread.join(long, int)}, {@code TransferQueue.transfer},
 *       {@code ExecutorService.invokeAll/invokeAny}, the JDK's {@code ServerSocket.accept}, {@code
 *       DatagramSocket.receive}, {@code Selector.select}, ... : {@link #RULES}) stay as they are and are
 *       preceded by {@code Polling.unsuspendable(site)}, which reports them in a flow like a pin
 *       ({@link Pins.Reason#BLOCKING_CALL}).
 *   <li>Waits for a pipe's other end that are not stream suspension points ({@code readAllBytes}, {@code
 *       transferTo}, a {@code Reader}'s reads, a {@code Writer}'s writes: {@link #pipes()}) stay as they
 *       are and are preceded by {@code Polling.piped(receiver, site)}, which reports them likewise when
 *       the receiver is a pipe or another stream that waits inside the JDK (a JDK socket's, a process's,
 *       {@code System.in}).
 *   <li>The JDK's network waits whose answer depends on the receiver or an argument (a URL connection other than a local file's; a channel in blocking mode; a
 *       {@code Scanner} made over a source that waits inside the JDK: {@link #network()}) stay as they are and are
 *       preceded by {@code Polling.<check>(value, site)}, which reports them likewise when they wait; the
 *       connecting {@code Socket} constructors are {@code UNSUSPENDABLE} rules matched on their own class only.
 * </ul>
 *
 * <p>Stateless; used by the instrumenter under the class loader's initialisation.
 */
final class SiteCalls {

    /** What is done at a matching call. */
    enum Kind {
        /** An acquisition that always holds the lock when it returns. */
        LOCK,
        /** An acquisition that returns whether it holds the lock. */
        TRY_LOCK,
        /** A release. */
        UNLOCK,
        /** A blocking call with no suspendable form. */
        UNSUSPENDABLE,
        /** A call that waits for a pipe's other end when its receiver is a pipe: reported for pipes only. */
        PIPE,
        /**
         * A call that waits inside the JDK for some receivers or arguments only (a name that is not an IP literal,
         * a URL that is not a local file, a channel in blocking mode): its rule's {@code Polling} check decides at
         * run time.
         */
        CHECKED
    }

    private static final String LOCKS = "dev/flow/internal/Locks";
    private static final String POLLING = "dev/flow/internal/Polling";
    private static final String LOCK = "java/util/concurrent/locks/Lock";
    private static final String CONDITION = "java/util/concurrent/locks/Condition";
    private static final String TIMED = "(JLjava/util/concurrent/TimeUnit;)";

    private static final String EXECUTOR = "java/util/concurrent/ExecutorService";
    private static final String FJ_POOL = "java/util/concurrent/ForkJoinPool";
    private static final String FJ_TASK = "java/util/concurrent/ForkJoinTask";
    private static final String PUBLISHER = "java/util/concurrent/SubmissionPublisher";
    private static final String PARK = "java/util/concurrent/locks/LockSupport";
    private static final String AQS = "java/util/concurrent/locks/AbstractQueuedSynchronizer";
    private static final String AQLS = "java/util/concurrent/locks/AbstractQueuedLongSynchronizer";

    private static final class Rule {
        final String owner;
        final String name;
        final String params;
        final Kind kind;
        final boolean isStatic;
        /** For {@link Kind#PIPE}: the pipe class a receiver must be able to be (its subtype or supertype). */
        final String pipe;
        /** For {@link Kind#CHECKED}: the {@code Polling} method, {@code (Ljava/lang/Object;I)V}, that decides. */
        final String check;
        /** For {@link Kind#CHECKED}: the argument the check is given ({@code -1}: the receiver). */
        final int arg;

        Rule(String owner, String name, String params, Kind kind) {
            this(owner, name, params, kind, false, null);
        }

        Rule(String owner, String name, String params, Kind kind, boolean isStatic) {
            this(owner, name, params, kind, isStatic, null);
        }

        Rule(String owner, String name, String params, Kind kind, boolean isStatic, String pipe) {
            this(owner, name, params, kind, isStatic, pipe, null, -1);
        }

        Rule(String owner, String name, String params, Kind kind, boolean isStatic, String pipe, String check, int arg) {
            this.owner = owner;
            this.name = name;
            this.params = params;
            this.kind = kind;
            this.isStatic = isStatic;
            this.pipe = pipe;
            this.check = check;
            this.arg = arg;
        }

        boolean isConstructor() {
            return name.equals("<init>");
        }
    }

    private static Rule blocking(String owner, String name, String params) {
        return new Rule(owner, name, params, Kind.UNSUSPENDABLE);
    }

    private static Rule blockingStatic(String owner, String name, String params) {
        return new Rule(owner, name, params, Kind.UNSUSPENDABLE, true);
    }

    /** {@code new owner(params...)}: a constructor that always waits inside the JDK (a connecting socket's). */
    private static Rule blockingConstructor(String owner, String params) {
        return new Rule(owner, "<init>", params, Kind.UNSUSPENDABLE);
    }

    /** {@code owner.name(params...)} reported when {@code Polling.check(receiver, site)} says it waits. */
    private static Rule checked(String owner, String name, String params, String check) {
        return new Rule(owner, name, params, Kind.CHECKED, false, null, check, -1);
    }

    /** {@code owner.name(params...)} (static, or {@code <init>}) reported when {@code Polling.check(argument arg, site)} says it waits. */
    private static Rule checkedArgument(String owner, String name, String params, String check, int arg) {
        return new Rule(owner, name, params, Kind.CHECKED, !name.equals("<init>"), null, check, arg);
    }

    /** {@code owner.name(params...)} reported when its receiver is a {@code pipe}. */
    private static Rule piped(String owner, String name, String params, String pipe) {
        return new Rule(owner, name, params, Kind.PIPE, false, pipe);
    }

    private static final String PIPED_IN = "java/io/PipedInputStream";
    private static final String PIPED_READER = "java/io/PipedReader";
    private static final String PIPED_WRITER = "java/io/PipedWriter";

    /**
     * The waits for a pipe's other end that are not stream suspension points (those take their site in
     * their replacement: {@code read}, {@code readNBytes(byte[], int, int)}, {@code skip}, {@code write}):
     * {@code InputStream}'s loops over reads, and every read of a {@code Reader} (JDK 25's {@code
     * readAllLines}/{@code readAllAsString} where the JDK has them) and write of a {@code Writer}, also
     * through {@code Readable} and {@code Appendable}. A pipe's {@code flush}, {@code close},
     * {@code connect}, {@code available} and {@code ready} only take its monitor, which a waiting end
     * releases while it waits: not reported.
     */
    private static Rule[] pipes() {
        return new Rule[] {
            piped("java/io/InputStream", "readAllBytes", "()", PIPED_IN),
            piped("java/io/InputStream", "readNBytes", "(I)", PIPED_IN),
            piped("java/io/InputStream", "skipNBytes", "(J)", PIPED_IN),
            piped("java/io/InputStream", "transferTo", "(Ljava/io/OutputStream;)", PIPED_IN),
            piped("java/io/Reader", "read", "(", PIPED_READER),
            piped("java/io/Reader", "skip", "(J)", PIPED_READER),
            piped("java/io/Reader", "transferTo", "(Ljava/io/Writer;)", PIPED_READER),
            piped("java/io/Reader", "readAllLines", "()", PIPED_READER),
            piped("java/io/Reader", "readAllAsString", "()", PIPED_READER),
            piped("java/lang/Readable", "read", "(Ljava/nio/CharBuffer;)", PIPED_READER),
            piped("java/io/Writer", "write", "(", PIPED_WRITER),
            piped("java/io/Writer", "append", "(", PIPED_WRITER),
            piped("java/lang/Appendable", "append", "(", PIPED_WRITER)
        };
    }

    private static final String INET = "java/net/InetAddress";
    private static final String URL = "java/net/URL";
    private static final String URL_CONNECTION = "java/net/URLConnection";
    private static final String LOOKUP = "lookup";
    private static final String URL_CONNECT = "urlConnect";
    private static final String CHANNEL = "blockingChannel";
    private static final String STRING = "Ljava/lang/String;";
    private static final String ADDRESS = "Ljava/net/InetAddress;";

    /**
     * The JDK's network calls that wait inside the JDK, out of Flow's transports (a {@code Socket.connect} is a
     * suspension point that reports a plain JDK socket in its replacement): the connecting {@code Socket}
     * constructors (the host, port forms; not {@code Socket()}, {@code Socket(Proxy)}, {@code Socket(SocketImpl)});
     * {@code InetAddress.isReachable}; a subclass's {@code super(host, port)} of {@code InetSocketAddress} unless
     * an IP literal (a name lookup; every {@code new InetSocketAddress(String, int)} and the other lookups are
     * suspension points, {@code BuiltinSuspensionPoints}); URL connections (unless a local file: {@code
     * Polling.isLocal}); the reads, writes, connects, accepts, receives and sends of channels in blocking mode
     * ({@code SocketChannel.open(SocketAddress)} always); and a {@code Scanner} made over a source that waits
     * inside the JDK (reported where it is made: every read of it is inside the JDK).
     */
    private static Rule[] network() {
        List<Rule> out = new ArrayList<>();
        for (String host : new String[] {STRING, ADDRESS}) {
            out.add(blockingConstructor("java/net/Socket", "(" + host + "I)V"));
            out.add(blockingConstructor("java/net/Socket", "(" + host + "IZ)V"));
            out.add(blockingConstructor("java/net/Socket", "(" + host + "I" + ADDRESS + "I)V"));
        }
        out.add(checkedArgument("java/net/InetSocketAddress", "<init>", "(" + STRING + "I)V", LOOKUP, 0));
        out.add(blocking(INET, "isReachable", "("));
        out.add(checked(URL, "openStream", "()", URL_CONNECT));
        out.add(checked(URL, "getContent", "(", URL_CONNECT));
        for (String name : new String[] {"connect", "getInputStream", "getOutputStream", "getContent", "getHeaderField",
                "getHeaderFieldKey", "getHeaderFields", "getHeaderFieldInt", "getHeaderFieldLong", "getHeaderFieldDate",
                "getContentType", "getContentLength", "getContentLengthLong", "getContentEncoding", "getExpiration",
                "getDate", "getLastModified"}) {
            out.add(checked(URL_CONNECTION, name, "(", URL_CONNECT));
        }
        out.add(checked("java/net/HttpURLConnection", "getResponseCode", "()", URL_CONNECT));
        out.add(checked("java/net/HttpURLConnection", "getResponseMessage", "()", URL_CONNECT));
        out.add(checked("java/nio/channels/ReadableByteChannel", "read", "(", CHANNEL));
        out.add(checked("java/nio/channels/WritableByteChannel", "write", "(", CHANNEL));
        out.add(checked("java/nio/channels/SocketChannel", "connect", "(", CHANNEL));
        out.add(checked("java/nio/channels/SocketChannel", "finishConnect", "()", CHANNEL));
        out.add(checked("java/nio/channels/ServerSocketChannel", "accept", "()", CHANNEL));
        out.add(checked("java/nio/channels/DatagramChannel", "receive", "(", CHANNEL));
        out.add(checked("java/nio/channels/DatagramChannel", "send", "(", CHANNEL));
        out.add(blockingStatic("java/nio/channels/SocketChannel", "open", "(Ljava/net/SocketAddress;)"));
        for (String source : new String[] {"Ljava/io/InputStream;", "Ljava/lang/Readable;", "Ljava/nio/channels/ReadableByteChannel;"}) {
            out.add(checkedArgument("java/util/Scanner", "<init>", "(" + source, "scannerSource", 0));
        }
        return out.toArray(new Rule[0]);
    }

    private static Rule[] synchronizersPipesAndNetwork() {
        List<Rule> all = new ArrayList<>(Arrays.asList(synchronizers()));
        all.addAll(Arrays.asList(pipes()));
        all.addAll(Arrays.asList(network()));
        return all.toArray(new Rule[0]);
    }

    private static final List<Rule> RULES = declaredByTheJdk(synchronizersPipesAndNetwork(),
            new Rule(LOCK, "lock", "()", Kind.LOCK),
            new Rule(LOCK, "lockInterruptibly", "()", Kind.LOCK),
            new Rule(LOCK, "tryLock", "()", Kind.TRY_LOCK),
            new Rule(LOCK, "tryLock", TIMED, Kind.TRY_LOCK),
            new Rule(LOCK, "unlock", "()", Kind.UNLOCK),
            new Rule("java/lang/Object", "wait", "()", Kind.UNSUSPENDABLE),
            new Rule("java/lang/Object", "wait", "(J)", Kind.UNSUSPENDABLE),
            new Rule("java/lang/Object", "wait", "(JI)", Kind.UNSUSPENDABLE),
            new Rule(CONDITION, "await", "()", Kind.UNSUSPENDABLE),
            new Rule(CONDITION, "await", TIMED, Kind.UNSUSPENDABLE),
            new Rule(CONDITION, "awaitNanos", "(J)", Kind.UNSUSPENDABLE),
            new Rule(CONDITION, "awaitUninterruptibly", "()", Kind.UNSUSPENDABLE),
            new Rule(CONDITION, "awaitUntil", "(Ljava/util/Date;)", Kind.UNSUSPENDABLE),
            new Rule("java/util/concurrent/CyclicBarrier", "await", "()", Kind.UNSUSPENDABLE),
            new Rule("java/util/concurrent/CyclicBarrier", "await", TIMED, Kind.UNSUSPENDABLE),
            new Rule("java/util/concurrent/Exchanger", "exchange", "(Ljava/lang/Object;)", Kind.UNSUSPENDABLE),
            new Rule("java/util/concurrent/Exchanger", "exchange", "(Ljava/lang/Object;JLjava/util/concurrent/TimeUnit;)",
                    Kind.UNSUSPENDABLE),
            new Rule("java/util/concurrent/Phaser", "awaitAdvanceInterruptibly", "(I)", Kind.UNSUSPENDABLE),
            new Rule("java/util/concurrent/Phaser", "awaitAdvanceInterruptibly", "(IJLjava/util/concurrent/TimeUnit;)",
                    Kind.UNSUSPENDABLE),
            new Rule("java/lang/Thread", "join", "(JI)", Kind.UNSUSPENDABLE),
            blocking("java/lang/Thread", "join", "(Ljava/time/Duration;)"),
            blocking("java/lang/ref/ReferenceQueue", "remove", "("),
            blocking("java/util/concurrent/TransferQueue", "transfer", "(Ljava/lang/Object;)"),
            blocking("java/util/concurrent/TransferQueue", "tryTransfer", "(Ljava/lang/Object;J"),
            blocking(EXECUTOR, "invokeAll", "(Ljava/util/Collection;"),
            blocking(EXECUTOR, "invokeAny", "(Ljava/util/Collection;"),
            blocking(EXECUTOR, "close", "()"),
            blocking(FJ_POOL, "invoke", "(Ljava/util/concurrent/ForkJoinTask;)"),
            blocking(FJ_POOL, "invokeAllUninterruptibly", "("),
            blocking("java/lang/Process", "waitFor", "(Ljava/time/Duration;)"),
            blocking("java/util/concurrent/StructuredTaskScope", "join", "()"),
            blocking("java/util/concurrent/StructuredTaskScope", "close", "()"),
            blocking(FJ_POOL, "awaitQuiescence", TIMED),
            blocking(FJ_TASK, "quietlyJoin", TIMED),
            blocking(FJ_TASK, "quietlyJoinUninterruptibly", "("),
            blockingStatic(FJ_TASK, "helpQuiesce", "()"),
            blockingStatic(FJ_TASK, "invokeAll", "("),
            blocking(PUBLISHER, "submit", "(Ljava/lang/Object;)"),
            blocking(PUBLISHER, "offer", "(Ljava/lang/Object;JLjava/util/concurrent/TimeUnit;"),
            blocking("java/util/concurrent/TimeUnit", "timedWait", "(Ljava/lang/Object;J)"),
            blocking("java/nio/channels/AsynchronousChannelGroup", "awaitTermination", TIMED),
            blocking("java/nio/channels/FileChannel", "lock", "("),
            blocking("java/net/ServerSocket", "accept", "()"),
            blocking("java/net/DatagramSocket", "receive", "(Ljava/net/DatagramPacket;)"),
            blocking("java/net/DatagramSocket", "send", "(Ljava/net/DatagramPacket;"),
            blocking("java/nio/channels/Selector", "select", "("),
            blocking("java/io/Console", "readLine", "("),
            blocking("java/io/Console", "readPassword", "("),
            blockingStatic(PARK, "park", "("),
            blockingStatic(PARK, "parkNanos", "("),
            blockingStatic(PARK, "parkUntil", "("));

    private SiteCalls() {
    }

    /** The acquisitions of {@code AbstractQueuedSynchronizer}s: they park the thread. */
    private static Rule[] synchronizers() {
        String[] names = {"acquire", "acquireInterruptibly", "acquireShared", "acquireSharedInterruptibly",
                "tryAcquireNanos", "tryAcquireSharedNanos"};
        Rule[] out = new Rule[names.length * 2];
        for (int i = 0; i < names.length; i++) {
            out[2 * i] = blocking(AQS, names[i], "(");
            out[2 * i + 1] = blocking(AQLS, names[i], "(");
        }
        return out;
    }

    /**
     * The rules, {@code rules} then {@code more}, whose method the running JDK declares: a rule for a
     * later JDK's type or method ({@code ExecutorService.close()} before JDK 19) must not catch an
     * application's own method of that name.
     */
    private static List<Rule> declaredByTheJdk(Rule[] more, Rule... rules) {
        List<Rule> all = new ArrayList<>(Arrays.asList(rules));
        all.addAll(Arrays.asList(more));
        List<Rule> out = new ArrayList<>();
        for (Rule r : all) {
            Class<?> owner;
            try {
                owner = Class.forName(r.owner.replace('/', '.'), false, null);
            } catch (ClassNotFoundException e) {
                continue;
            }
            if (r.isConstructor()) {
                for (java.lang.reflect.Constructor<?> k : owner.getDeclaredConstructors()) {
                    if (Type.getConstructorDescriptor(k).startsWith(r.params)) {
                        out.add(r);
                        break;
                    }
                }
                continue;
            }
            for (Method m : owner.getDeclaredMethods()) {
                if (m.getName().equals(r.name) && Modifier.isStatic(m.getModifiers()) == r.isStatic
                        && Type.getMethodDescriptor(m).startsWith(r.params)) {
                    out.add(r);
                    break;
                }
            }
        }
        return List.copyOf(out);
    }

    /** The kind of {@code c}, or {@code null} if it is not a followed call. */
    static Kind match(MethodInsnNode c, Hierarchy hierarchy) {
        Rule r = rule(c, hierarchy);
        return r == null ? null : r.kind;
    }

    /** The rule of {@code c}, or {@code null}: a {@code super} call never matches, a constructor only its own class's rule. */
    private static Rule rule(MethodInsnNode c, Hierarchy hierarchy) {
        if (c.getOpcode() == Opcodes.INVOKESPECIAL && !c.name.equals("<init>")) {
            return null;
        }
        return rule(c.owner, c.name, c.desc, c.getOpcode() == Opcodes.INVOKESTATIC, hierarchy::isSubtype);
    }

    /**
     * The kind of a call to {@code owner.name desc} (internal names), or {@code null} if it is not a
     * followed call; {@code isSubtype} answers whether its first argument is its second or a subtype.
     */
    static Kind match(String owner, String name, String desc, boolean isStatic, BiPredicate<String, String> isSubtype) {
        Rule r = rule(owner, name, desc, isStatic, isSubtype);
        return r == null ? null : r.kind;
    }

    private static Rule rule(String owner, String name, String desc, boolean isStatic, BiPredicate<String, String> isSubtype) {
        for (Rule r : RULES) {
            if (r.isStatic == isStatic && r.name.equals(name) && desc.startsWith(r.params)
                    && (r.isConstructor() ? r.owner.equals(owner) : r.owner.equals("java/lang/Object") || isSubtype.test(owner, r.owner))
                    && (r.pipe == null || isSubtype.test(owner, r.pipe) || isSubtype.test(r.pipe, owner))) {
                return r;
            }
        }
        return null;
    }

    /** Adds the bookkeeping or the report around {@code c}; the call itself stays. */
    static void rewrite(String className, MethodNode mn, MethodInsnNode c, Kind kind, int line, boolean strict,
            Hierarchy hierarchy) {
        InsnList insns = mn.instructions;
        if (kind == Kind.UNSUSPENDABLE) {
            int site = Pins.register(className, mn.name + mn.desc, line, Pins.Reason.BLOCKING_CALL, strict);
            insns.insertBefore(c, new LdcInsnNode(site));
            insns.insertBefore(c, new MethodInsnNode(Opcodes.INVOKESTATIC, POLLING, "unsuspendable", "(I)V", false));
            return;
        }
        if (kind == Kind.PIPE) {
            int site = Pins.register(className, mn.name + mn.desc, line, Pins.Reason.BLOCKING_CALL, strict);
            insns.insertBefore(c, receiverAndSite(mn, c, site, POLLING, "piped"));
            return;
        }
        if (kind == Kind.CHECKED) {
            Rule r = rule(c, hierarchy);
            int site = Pins.register(className, mn.name + mn.desc, line, Pins.Reason.BLOCKING_CALL, strict);
            insns.insertBefore(c, valueAndSite(mn, c, r.arg, site, POLLING, r.check));
            return;
        }
        if (kind != Kind.UNLOCK && (!c.name.equals("tryLock") || c.desc.startsWith(TIMED))) {
            int contended = Pins.register(className, mn.name + mn.desc, line, Pins.Reason.CONTENDED_LOCK, strict);
            insns.insertBefore(c, receiverAndSite(mn, c, contended, LOCKS, "acquiring"));
        }
        insns.insertBefore(c, dupReceiver(mn, c));
        InsnList after = new InsnList();
        if (kind == Kind.UNLOCK) {
            after.add(new MethodInsnNode(Opcodes.INVOKESTATIC, LOCKS, "unlocked", "(Ljava/lang/Object;)V", false));
        } else {
            int site = Pins.register(className, mn.name + mn.desc, line, Pins.Reason.LOCK, strict);
            after.add(new LdcInsnNode(site));
            after.add(kind == Kind.LOCK
                    ? new MethodInsnNode(Opcodes.INVOKESTATIC, LOCKS, "locked", "(Ljava/lang/Object;I)V", false)
                    : new MethodInsnNode(Opcodes.INVOKESTATIC, LOCKS, "tried", "(Ljava/lang/Object;ZI)Z", false));
        }
        insns.insert(c, after);
    }

    /**
     * Code to place before the instance call {@code c}, with its receiver and arguments on the stack, that
     * calls {@code owner.name(receiver, site)} (descriptor {@code (Ljava/lang/Object;I)V}) and leaves the
     * stack as it was: the arguments go through fresh locals.
     */
    private static InsnList receiverAndSite(MethodNode mn, MethodInsnNode c, int site, String owner, String name) {
        return valueAndSite(mn, c, -1, site, owner, name);
    }

    /**
     * {@link #receiverAndSite} with argument {@code arg} of {@code c} ({@code -1}: the receiver) passed instead
     * of the receiver: for static calls and constructors, whose receiver is absent or not yet initialised.
     */
    private static InsnList valueAndSite(MethodNode mn, MethodInsnNode c, int arg, int site, String owner, String name) {
        InsnList out = new InsnList();
        int[] slots = storeArguments(mn, c.desc, out);
        if (arg < 0) {
            out.add(new InsnNode(Opcodes.DUP));
        } else {
            out.add(new VarInsnNode(Opcodes.ALOAD, slots[arg]));
        }
        out.add(new LdcInsnNode(site));
        out.add(new MethodInsnNode(Opcodes.INVOKESTATIC, owner, name, "(Ljava/lang/Object;I)V", false));
        loadArguments(c.desc, slots, out);
        return out;
    }

    /**
     * Code to place before the instance call {@code c}, with its receiver and arguments on the stack,
     * that leaves the stack as it was with a copy of the receiver below the receiver: the arguments
     * go through fresh locals.
     */
    private static InsnList dupReceiver(MethodNode mn, MethodInsnNode c) {
        InsnList out = new InsnList();
        int[] slots = storeArguments(mn, c.desc, out);
        out.add(new InsnNode(Opcodes.DUP));
        loadArguments(c.desc, slots, out);
        return out;
    }

    /**
     * Replaces the instance call {@code c} with {@code replacement} (which consumes the receiver and
     * the arguments and leaves the call's result) for a non-null receiver; a null receiver runs the
     * original call, so the JVM's helpful {@code NullPointerException} message (naming the null
     * expression) is exactly the one of the code loaded normally. That call always throws, so the two
     * paths do not merge: the result of the replacement has a single source, and a message about it
     * ({@code because the return value of "..." is null}) names that source as the original does.
     *
     * @return the first and last instruction of the code that replaced {@code c}
     */
    static AbstractInsnNode[] guardNullReceiver(MethodNode mn, MethodInsnNode c, InsnList replacement) {
        InsnList insns = mn.instructions;
        InsnList out = new InsnList();
        LabelNode first = new LabelNode();
        LabelNode nonNull = new LabelNode();
        LabelNode end = new LabelNode();
        out.add(first);
        int[] slots = storeArguments(mn, c.desc, out);
        out.add(new InsnNode(Opcodes.DUP));
        out.add(new JumpInsnNode(Opcodes.IFNONNULL, nonNull));
        loadArguments(c.desc, slots, out);
        out.add(new MethodInsnNode(c.getOpcode(), c.owner, c.name, c.desc, c.itf));
        out.add(new InsnNode(Opcodes.ACONST_NULL));
        out.add(new InsnNode(Opcodes.ATHROW));
        out.add(nonNull);
        loadArguments(c.desc, slots, out);
        out.add(replacement);
        out.add(end);
        insns.insertBefore(c, out);
        insns.remove(c);
        return new AbstractInsnNode[] {first, end};
    }

    private static int[] storeArguments(MethodNode mn, String desc, InsnList out) {
        Type[] args = Type.getArgumentTypes(desc);
        int[] slots = new int[args.length];
        for (int i = 0; i < args.length; i++) {
            slots[i] = mn.maxLocals;
            mn.maxLocals += args[i].getSize();
        }
        for (int i = args.length - 1; i >= 0; i--) {
            out.add(new VarInsnNode(args[i].getOpcode(Opcodes.ISTORE), slots[i]));
        }
        return slots;
    }

    private static void loadArguments(String desc, int[] slots, InsnList out) {
        Type[] args = Type.getArgumentTypes(desc);
        for (int i = 0; i < args.length; i++) {
            out.add(new VarInsnNode(args[i].getOpcode(Opcodes.ILOAD), slots[i]));
        }
    }
}
