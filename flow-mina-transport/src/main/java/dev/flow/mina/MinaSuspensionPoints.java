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
 * {@code SocketFactory.getDefault()} gives that factory too (substituted the same way).
 *
 * <p>And makes TLS that loaded code layers over those sockets suspend: {@code sslContext.getSocketFactory()} and
 * {@code SSLSocketFactory.getDefault()} give a factory whose {@code createSocket(socket, host, port, autoClose)}
 * layers Flow's TLS socket over a Flow socket (MINA's TLS filter with the engine configured as the code configures
 * the socket), and {@code startHandshake()} and {@code getSession()} of such a socket suspend (on any other {@code
 * SSLSocket} they are the original calls).
 *
 * <p>Registered as a {@link java.util.ServiceLoader} service of {@link SuspensionPointProvider}; not
 * meant to be called directly. Stateless and thread-safe.
 */
public final class MinaSuspensionPoints implements SuspensionPointProvider {

    private static final String IO_FUTURE = "org/apache/mina/core/future/IoFuture";
    private static final String AWAITS = "dev/flow/internal/Awaits";
    private static final String SSL_CONTEXT = "javax/net/ssl/SSLContext";
    private static final String SSL_SOCKET_FACTORY = "javax/net/ssl/SSLSocketFactory";
    private static final String SSL_SOCKET = "javax/net/ssl/SSLSocket";
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
                    AWAITS, "defaultSocketFactory"),
            SuspensionPoint.substituteFinal(SSL_CONTEXT, "getSocketFactory", "()L" + SSL_SOCKET_FACTORY + ";",
                    AWAITS, "tlsSocketFactory"),
            SuspensionPoint.substituteStatic(SSL_SOCKET_FACTORY, "getDefault", "()Ljavax/net/SocketFactory;",
                    AWAITS, "defaultTlsSocketFactory"),
            SuspensionPoint.replaceWithStatic(SSL_SOCKET, "startHandshake", "()V", AWAITS, "startHandshake",
                    "(L" + SSL_SOCKET + ";)V"),
            SuspensionPoint.replaceWithStatic(SSL_SOCKET, "getSession", "()Ljavax/net/ssl/SSLSession;", AWAITS,
                    "tlsSession", "(L" + SSL_SOCKET + ";)Ljavax/net/ssl/SSLSession;"));

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
