package dev.flow.mina;

import dev.flow.spi.SuspensionPoint;
import dev.flow.spi.SuspensionPointProvider;
import java.util.List;

/**
 * Makes MINA's blocking {@code IoFuture} waits suspension points: in code loaded through the {@code
 * ContinuationClassLoader}, {@code future.await()}, {@code awaitUninterruptibly()} and the deprecated
 * {@code join()} suspend the flow until the future completes, and the timed forms become {@code
 * dev.flow.internal.Awaits.readyMillis} / {@code readyTimeout}, which suspend for at most the timeout.
 * The {@code await} forms are interruptible as in MINA: with the flow's interrupt status set they
 * throw {@link InterruptedException}.
 * Subtypes such as {@code ConnectFuture.awaitUninterruptibly()} match too.
 *
 * <p>And makes loaded code's own sockets Flow's: {@code new Socket()}, {@code new Socket(host, port)} and the
 * other connecting constructors (with an {@code InetAddress}, with a local address; not the deprecated {@code
 * stream} forms nor {@code new Socket(Proxy)}) create a socket of {@link FlowSocketFactory}'s default connector
 * instead (registered as the {@code AsyncSocketFactory} service), connecting as a suspension point; {@code new
 * Socket()} waits for nothing, so it is no suspension point and works in constructors and static initializers.
 * {@code SocketFactory.getDefault()} gives that factory too (substituted the same way; not {@code
 * SSLSocketFactory.getDefault()}, another method, which stays the JDK's).
 *
 * <p>Registered as a {@link java.util.ServiceLoader} service of {@link SuspensionPointProvider}; not
 * meant to be called directly. Stateless and thread-safe.
 */
public final class MinaSuspensionPoints implements SuspensionPointProvider {

    private static final String IO_FUTURE = "org/apache/mina/core/future/IoFuture";
    private static final String AWAITS = "dev/flow/internal/Awaits";
    private static final String READY_MILLIS = "(Ljava/lang/Object;J)Z";
    private static final String READY_TIMEOUT = "(Ljava/lang/Object;JLjava/util/concurrent/TimeUnit;)Z";

    private static final List<SuspensionPoint> POINTS = List.of(
            SuspensionPoint.awaitReceiverInterruptibly(IO_FUTURE, "await", "()L" + IO_FUTURE + ";"),
            SuspensionPoint.awaitReceiver(IO_FUTURE, "awaitUninterruptibly", "()L" + IO_FUTURE + ";"),
            SuspensionPoint.awaitReceiver(IO_FUTURE, "join", "()V"),
            SuspensionPoint.replaceWithStatic(IO_FUTURE, "await", "(J)Z", AWAITS, "readyMillisInterruptibly", READY_MILLIS),
            SuspensionPoint.replaceWithStatic(IO_FUTURE, "awaitUninterruptibly", "(J)Z",
                    AWAITS, "readyMillis", READY_MILLIS),
            SuspensionPoint.replaceWithStatic(IO_FUTURE, "join", "(J)Z", AWAITS, "readyMillis", READY_MILLIS),
            SuspensionPoint.replaceWithStatic(IO_FUTURE, "await", "(JLjava/util/concurrent/TimeUnit;)Z",
                    AWAITS, "readyTimeoutInterruptibly", READY_TIMEOUT),
            SuspensionPoint.replaceWithStatic(IO_FUTURE, "awaitUninterruptibly", "(JLjava/util/concurrent/TimeUnit;)Z",
                    AWAITS, "readyTimeout", READY_TIMEOUT),
            SuspensionPoint.substituteConstructor("java/net/Socket", "()V", AWAITS, "newSocket"),
            socket("(Ljava/lang/String;I)V"),
            socket("(Ljava/net/InetAddress;I)V"),
            socket("(Ljava/lang/String;ILjava/net/InetAddress;I)V"),
            socket("(Ljava/net/InetAddress;ILjava/net/InetAddress;I)V"),
            SuspensionPoint.substituteStatic("javax/net/SocketFactory", "getDefault", "()Ljavax/net/SocketFactory;",
                    AWAITS, "defaultSocketFactory"));

    /** A {@code java.net.Socket} constructor, replaced by the {@code Awaits.newSocket} form of the same parameters. */
    private static SuspensionPoint socket(String descriptor) {
        return SuspensionPoint.replaceConstructor("java/net/Socket", descriptor, AWAITS, "newSocket");
    }

    /** Creates the provider; called by {@link java.util.ServiceLoader}. */
    public MinaSuspensionPoints() {
    }

    /** The {@code IoFuture} await family, as listed in the class description. */
    @Override
    public List<SuspensionPoint> suspensionPoints() {
        return POINTS;
    }
}
