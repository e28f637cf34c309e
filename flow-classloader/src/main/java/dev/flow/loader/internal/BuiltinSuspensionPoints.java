package dev.flow.loader.internal;

import dev.flow.spi.SuspensionPoint;
import dev.flow.spi.SuspensionPointProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/** The suspension points Flow knows without configuration, plus those of provider services. */
public final class BuiltinSuspensionPoints {

    private static final String AWAITS = Names.AWAITS;
    private static final String TRANSPORT = "dev/flow/Transport";

    private BuiltinSuspensionPoints() {
    }

    /** The built-in points followed by those of every {@link SuspensionPointProvider} visible to {@code loader}. */
    public static List<SuspensionPoint> all(ClassLoader loader) {
        List<SuspensionPoint> out = new ArrayList<>(builtins());
        for (SuspensionPointProvider p : ServiceLoader.load(SuspensionPointProvider.class, loader)) {
            out.addAll(p.suspensionPoints());
        }
        return out;
    }

    static List<SuspensionPoint> builtins() {
        List<SuspensionPoint> p = new ArrayList<>();
        transport(p, "readLine", "()Ljava/lang/String;");
        transport(p, "readLine", "(Ldev/flow/LineTerminator;I)Ljava/lang/String;");
        transport(p, "readLineBytes", "()Ldev/flow/Line;");
        transport(p, "readLineBytes", "(Ldev/flow/LineTerminator;I)Ldev/flow/Line;");
        transport(p, "readDotBody", "(Ljava/io/OutputStream;J)J");
        transport(p, "read", "([BII)I");
        transport(p, "readFully", "([BII)V");
        transport(p, "readFully", "(I)[B");
        transport(p, "skip", "(J)V");
        transport(p, "writeLine", "(Ljava/lang/String;)V");
        transport(p, "write", "([BII)V");
        transport(p, "write", "([B)V");
        transport(p, "writeText", "(Ljava/lang/String;)V");
        transport(p, "flush", "()V");
        transport(p, "startTls", "(Ldev/flow/TlsUpgrade;)Ljavax/net/ssl/SSLSession;");
        transport(p, "flushIfNoInput", "()Z");
        stream(p, "java/io/InputStream", "read", "()I", "inputRead");
        stream(p, "java/io/InputStream", "read", "([B)I", "inputRead");
        stream(p, "java/io/InputStream", "read", "([BII)I", "inputRead");
        stream(p, "java/io/InputStream", "readNBytes", "([BII)I", "inputReadNBytes");
        stream(p, "java/io/InputStream", "skip", "(J)J", "inputSkip");
        stream(p, "java/io/OutputStream", "write", "(I)V", "outputWrite");
        stream(p, "java/io/OutputStream", "write", "([B)V", "outputWrite");
        stream(p, "java/io/OutputStream", "write", "([BII)V", "outputWrite");
        stream(p, "java/io/OutputStream", "flush", "()V", "outputFlush");
        p.add(SuspensionPoint.replaceWithStatic("dev/flow/Connector", "connect", "()Ldev/flow/Transport;",
                AWAITS, "connect", "(Ldev/flow/Connector;)Ldev/flow/Transport;"));
        sockets(p);
        lookups(p);
        p.add(SuspensionPoint.awaitReceiverInterruptibly("java/util/concurrent/Future", "get", "()Ljava/lang/Object;"));
        p.add(SuspensionPoint.replaceWithStatic("java/util/concurrent/Future", "get",
                "(JLjava/util/concurrent/TimeUnit;)Ljava/lang/Object;",
                AWAITS, "futureGet", "(Ljava/util/concurrent/Future;JLjava/util/concurrent/TimeUnit;)Ljava/lang/Object;"));
        p.add(SuspensionPoint.awaitReceiver("java/util/concurrent/CompletableFuture", "join", "()Ljava/lang/Object;"));
        addPrimitives(p);
        p.add(SuspensionPoint.replaceWithStatic("java/lang/Thread", "sleep", "(J)V", AWAITS, "sleep", "(J)V"));
        p.add(SuspensionPoint.replaceWithStatic("java/lang/Thread", "sleep", "(JI)V", AWAITS, "sleep", "(JI)V"));
        p.add(SuspensionPoint.replaceWithStatic("java/lang/Thread", "sleep", "(Ljava/time/Duration;)V",
                AWAITS, "sleep", "(Ljava/time/Duration;)V"));
        p.add(SuspensionPoint.replaceWithStatic("dev/flow/Flow", "await", "(Ljava/util/concurrent/CompletionStage;)Ljava/lang/Object;",
                AWAITS, "await", "(Ljava/util/concurrent/CompletionStage;)Ljava/lang/Object;"));
        p.add(SuspensionPoint.replaceWithStatic("dev/flow/Flow", "await", "(Ljava/util/concurrent/CompletableFuture;)Ljava/lang/Object;",
                AWAITS, "await", "(Ljava/util/concurrent/CompletionStage;)Ljava/lang/Object;"));
        p.add(SuspensionPoint.replaceWithStatic("dev/flow/Flow", "await", "(Ljava/util/concurrent/Future;)Ljava/lang/Object;",
                AWAITS, "await", "(Ljava/util/concurrent/Future;)Ljava/lang/Object;"));
        p.add(SuspensionPoint.replaceWithStatic("dev/flow/Flow", "await", "(Ldev/flow/spi/Awaitable;)V",
                AWAITS, "await", "(Ldev/flow/spi/Awaitable;)V"));
        p.add(SuspensionPoint.replaceWithStatic("dev/flow/Flow", "sleep", "(Ljava/time/Duration;)V",
                AWAITS, "sleep", "(Ljava/time/Duration;)V"));
        return p;
    }

    private static final String BQ = "java/util/concurrent/BlockingQueue";
    private static final String DEQUE = "java/util/concurrent/BlockingDeque";
    private static final String STAMPED = "java/util/concurrent/locks/StampedLock";
    private static final String LATCH = "java/util/concurrent/CountDownLatch";
    private static final String SEMAPHORE = "java/util/concurrent/Semaphore";
    private static final String HANDLE = "dev/flow/FlowHandle";
    private static final String UNIT = "Ljava/util/concurrent/TimeUnit;";

    /**
     * Flow handles, blocking queues and deques, latches, semaphores, phasers, completion services,
     * executors' termination, threads' {@code join}, stamped locks, processes' {@code waitFor}, {@code
     * TimeUnit.sleep/timedJoin}: their waits poll and suspend between attempts; and fork/join tasks'
     * {@code join} and {@code quietlyJoin}.
     */
    private static void addPrimitives(List<SuspensionPoint> p) {
        instance(p, HANDLE, "join", "()Ljava/lang/Object;");
        instance(p, HANDLE, "get", "(Ljava/time/Duration;)Ljava/lang/Object;");
        instance(p, BQ, "take", "()Ljava/lang/Object;");
        instance(p, BQ, "poll", "(J" + UNIT + ")Ljava/lang/Object;");
        instance(p, BQ, "put", "(Ljava/lang/Object;)V");
        instance(p, BQ, "offer", "(Ljava/lang/Object;J" + UNIT + ")Z");
        for (String end : new String[] {"First", "Last"}) {
            instance(p, DEQUE, "take" + end, "()Ljava/lang/Object;");
            instance(p, DEQUE, "poll" + end, "(J" + UNIT + ")Ljava/lang/Object;");
            instance(p, DEQUE, "put" + end, "(Ljava/lang/Object;)V");
            instance(p, DEQUE, "offer" + end, "(Ljava/lang/Object;J" + UNIT + ")Z");
        }
        for (String mode : new String[] {"read", "write"}) {
            instance(p, STAMPED, mode + "Lock", "()J");
            instance(p, STAMPED, mode + "LockInterruptibly", "()J");
            String capitalised = Character.toUpperCase(mode.charAt(0)) + mode.substring(1);
            instance(p, STAMPED, "try" + capitalised + "Lock", "(J" + UNIT + ")J");
        }
        instance(p, LATCH, "await", "()V");
        instance(p, LATCH, "await", "(J" + UNIT + ")Z");
        instance(p, SEMAPHORE, "acquire", "()V");
        instance(p, SEMAPHORE, "acquire", "(I)V");
        instance(p, SEMAPHORE, "acquireUninterruptibly", "()V");
        instance(p, SEMAPHORE, "acquireUninterruptibly", "(I)V");
        instance(p, SEMAPHORE, "tryAcquire", "(J" + UNIT + ")Z");
        instance(p, SEMAPHORE, "tryAcquire", "(IJ" + UNIT + ")Z");
        instance(p, "java/util/concurrent/Phaser", "awaitAdvance", "(I)I");
        instance(p, "java/util/concurrent/Phaser", "arriveAndAwaitAdvance", "()I");
        instance(p, "java/util/concurrent/CompletionService", "take", "()Ljava/util/concurrent/Future;");
        instance(p, "java/util/concurrent/CompletionService", "poll", "(J" + UNIT + ")Ljava/util/concurrent/Future;");
        instance(p, "java/util/concurrent/ExecutorService", "awaitTermination", "(J" + UNIT + ")Z");
        p.add(SuspensionPoint.awaitReceiver("java/util/concurrent/ForkJoinTask", "join", "()Ljava/lang/Object;"));
        p.add(SuspensionPoint.awaitReceiver("java/util/concurrent/ForkJoinTask", "quietlyJoin", "()V"));
        instance(p, "java/lang/Thread", "join", "()V");
        instance(p, "java/lang/Thread", "join", "(J)V");
        instance(p, "java/util/concurrent/TimeUnit", "sleep", "(J)V");
        instance(p, "java/util/concurrent/TimeUnit", "timedJoin", "(Ljava/lang/Thread;J)V");
        instance(p, "java/lang/Process", "waitFor", "()I");
        instance(p, "java/lang/Process", "waitFor", "(J" + UNIT + ")Z");
    }

    private static final String SOCKET = "java/net/Socket";
    private static final String SOCKET_FACTORY = "javax/net/SocketFactory";

    /**
     * {@code Socket.connect} and the connecting {@code SocketFactory.createSocket} forms: they suspend for
     * an {@code AsyncSocket} (a Flow socket) and its factory, and make the plain call for any other, reported at
     * the call site for a plain JDK socket and a JDK factory (their replacements take the site).
     */
    private static void sockets(List<SuspensionPoint> p) {
        p.add(SuspensionPoint.replaceWithStatic(SOCKET, "connect", "(Ljava/net/SocketAddress;)V",
                AWAITS, "socketConnect", "(L" + SOCKET + ";Ljava/net/SocketAddress;)V"));
        p.add(SuspensionPoint.replaceWithStatic(SOCKET, "connect", "(Ljava/net/SocketAddress;I)V",
                AWAITS, "socketConnectTimed", "(L" + SOCKET + ";Ljava/net/SocketAddress;I)V"));
        for (String host : new String[] {"Ljava/lang/String;", "Ljava/net/InetAddress;"}) {
            String to = "(" + host + "I)Ljava/net/Socket;";
            String from = "(" + host + "ILjava/net/InetAddress;I)Ljava/net/Socket;";
            p.add(SuspensionPoint.replaceWithStatic(SOCKET_FACTORY, "createSocket", to,
                    AWAITS, "createSocket", "(L" + SOCKET_FACTORY + ";" + to.substring(1)));
            p.add(SuspensionPoint.replaceWithStatic(SOCKET_FACTORY, "createSocket", from,
                    AWAITS, "createSocket", "(L" + SOCKET_FACTORY + ";" + from.substring(1)));
        }
    }

    private static final String INET = "java/net/InetAddress";
    private static final String INET_SOCKET_ADDRESS = "java/net/InetSocketAddress";

    /**
     * Name lookups: {@code InetAddress.getByName/getAllByName/getLocalHost}, {@code new InetSocketAddress(String,
     * int)} and the reverse lookups ({@code getHostName}, {@code getCanonicalHostName}). In a flow, those that ask
     * the resolver run on a lookup thread while the flow suspends; the others (IP literals, an address's known
     * name) and every call outside a flow run in place.
     */
    private static void lookups(List<SuspensionPoint> p) {
        p.add(SuspensionPoint.replaceWithStatic(INET, "getByName", "(Ljava/lang/String;)L" + INET + ";",
                AWAITS, "getByName", "(Ljava/lang/String;)L" + INET + ";"));
        p.add(SuspensionPoint.replaceWithStatic(INET, "getAllByName", "(Ljava/lang/String;)[L" + INET + ";",
                AWAITS, "getAllByName", "(Ljava/lang/String;)[L" + INET + ";"));
        p.add(SuspensionPoint.replaceWithStatic(INET, "getLocalHost", "()L" + INET + ";",
                AWAITS, "getLocalHost", "()L" + INET + ";"));
        p.add(SuspensionPoint.replaceWithStatic(INET, "getHostName", "()Ljava/lang/String;",
                AWAITS, "hostName", "(L" + INET + ";)Ljava/lang/String;"));
        p.add(SuspensionPoint.replaceWithStatic(INET, "getCanonicalHostName", "()Ljava/lang/String;",
                AWAITS, "canonicalHostName", "(L" + INET + ";)Ljava/lang/String;"));
        p.add(SuspensionPoint.replaceWithStatic(INET_SOCKET_ADDRESS, "getHostName", "()Ljava/lang/String;",
                AWAITS, "hostName", "(L" + INET_SOCKET_ADDRESS + ";)Ljava/lang/String;"));
        p.add(SuspensionPoint.replaceConstructor(INET_SOCKET_ADDRESS, "(Ljava/lang/String;I)V", AWAITS,
                "newInetSocketAddress"));
    }

    /** An instance method replaced by the {@code PrimitiveAwaits} method of the same name taking the receiver first. */
    private static void instance(List<SuspensionPoint> p, String owner, String name, String desc) {
        p.add(SuspensionPoint.replaceWithStatic(owner, name, desc, Names.PRIMITIVE_AWAITS, name,
                "(L" + owner + ";" + desc.substring(1)));
    }

    /**
     * A {@code java.io} stream method replaced by the {@code Awaits} form that suspends for a
     * transport's own stream view and makes the plain call for any other stream.
     */
    private static void stream(List<SuspensionPoint> p, String owner, String name, String descriptor, String form) {
        p.add(SuspensionPoint.replaceWithStatic(owner, name, descriptor,
                AWAITS, form, "(L" + owner + ";" + descriptor.substring(1)));
    }

    /** A blocking {@code Transport} method replaced by the {@code Awaits} form taking the transport first. */
    private static void transport(List<SuspensionPoint> p, String name, String descriptor) {
        p.add(SuspensionPoint.replaceWithStatic(TRANSPORT, name, descriptor,
                AWAITS, name, "(L" + TRANSPORT + ";" + descriptor.substring(1)));
    }
}
