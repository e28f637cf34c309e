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
        p.add(SuspensionPoint.replaceWithStatic(TRANSPORT, "readLine", "()Ljava/lang/String;",
                AWAITS, "readLine", "(Ldev/flow/Transport;)Ljava/lang/String;"));
        p.add(SuspensionPoint.replaceWithStatic(TRANSPORT, "read", "([BII)I",
                AWAITS, "read", "(Ldev/flow/Transport;[BII)I"));
        p.add(SuspensionPoint.replaceWithStatic(TRANSPORT, "writeLine", "(Ljava/lang/String;)V",
                AWAITS, "writeLine", "(Ldev/flow/Transport;Ljava/lang/String;)V"));
        p.add(SuspensionPoint.replaceWithStatic(TRANSPORT, "write", "([BII)V",
                AWAITS, "write", "(Ldev/flow/Transport;[BII)V"));
        p.add(SuspensionPoint.replaceWithStatic(TRANSPORT, "flush", "()V",
                AWAITS, "flush", "(Ldev/flow/Transport;)V"));
        p.add(SuspensionPoint.replaceWithStatic("dev/flow/Connector", "connect", "()Ldev/flow/Transport;",
                AWAITS, "connect", "(Ldev/flow/Connector;)Ldev/flow/Transport;"));
        p.add(SuspensionPoint.awaitReceiver("java/util/concurrent/Future", "get", "()Ljava/lang/Object;"));
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
    private static final String LATCH = "java/util/concurrent/CountDownLatch";
    private static final String SEMAPHORE = "java/util/concurrent/Semaphore";
    private static final String HANDLE = "dev/flow/FlowHandle";
    private static final String UNIT = "Ljava/util/concurrent/TimeUnit;";

    /**
     * Flow handles, blocking queues, latches, semaphores, phasers, completion services, executors'
     * termination, threads' {@code join}: their waits poll and suspend between attempts; and fork/join
     * tasks' {@code join}.
     */
    private static void addPrimitives(List<SuspensionPoint> p) {
        instance(p, HANDLE, "join", "()Ljava/lang/Object;");
        instance(p, HANDLE, "get", "(Ljava/time/Duration;)Ljava/lang/Object;");
        instance(p, BQ, "take", "()Ljava/lang/Object;");
        instance(p, BQ, "poll", "(J" + UNIT + ")Ljava/lang/Object;");
        instance(p, BQ, "put", "(Ljava/lang/Object;)V");
        instance(p, BQ, "offer", "(Ljava/lang/Object;J" + UNIT + ")Z");
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
        instance(p, "java/lang/Thread", "join", "()V");
        instance(p, "java/lang/Thread", "join", "(J)V");
    }

    /** An instance method replaced by the {@code PrimitiveAwaits} method of the same name taking the receiver first. */
    private static void instance(List<SuspensionPoint> p, String owner, String name, String desc) {
        p.add(SuspensionPoint.replaceWithStatic(owner, name, desc, Names.PRIMITIVE_AWAITS, name,
                "(L" + owner + ";" + desc.substring(1)));
    }
}
