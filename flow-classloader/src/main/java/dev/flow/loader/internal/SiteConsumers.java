package dev.flow.loader.internal;

import java.util.HashSet;
import java.util.Set;

/**
 * The runtime methods that take a pin-site id as their last argument, pushed by an {@code ldc} of an int
 * just before the call (the engine may place a resume label between the two when the call can suspend).
 * Keyed {@code owner.name(descriptor)}. Every route that carries a class file out of the process that
 * registered its sites (the build-time route, the loader's class cache) must find each of them.
 *
 * <p>Immutable; thread-safe.
 */
public final class SiteConsumers {

    /** The calls whose site is a pin wherever it runs: reported at load time and in the pin report. */
    public static final Set<String> ALWAYS = Set.of(Names.PINS + ".enter(I)I", "dev/flow/internal/Polling.unsuspendable(I)V",
            "dev/flow/internal/Locks.locked(Ljava/lang/Object;I)V", "dev/flow/internal/Locks.tried(Ljava/lang/Object;ZI)Z");

    /**
     * The calls that report their site only for some receivers or arguments (a contended lock made outside the
     * scope, a {@code SynchronousQueue}, a piped stream, a plain JDK socket's connect, a name that is not an IP
     * literal, a URL that is not a local file, a channel in blocking mode, a {@code Scanner} over a JDK socket),
     * when they would block: not in the pin report.
     */
    public static final Set<String> CONDITIONAL = Set.of("dev/flow/internal/Locks.acquiring(Ljava/lang/Object;I)V",
            "dev/flow/internal/Polling.piped(Ljava/lang/Object;I)V",
            Names.PRIMITIVE_AWAITS + ".put(Ljava/util/concurrent/BlockingQueue;Ljava/lang/Object;I)V",
            Names.PRIMITIVE_AWAITS + ".offer(Ljava/util/concurrent/BlockingQueue;Ljava/lang/Object;JLjava/util/concurrent/TimeUnit;I)Z",
            Names.AWAITS + ".inputRead(Ljava/io/InputStream;I)I", Names.AWAITS + ".inputRead(Ljava/io/InputStream;[BI)I",
            Names.AWAITS + ".inputRead(Ljava/io/InputStream;[BIII)I", Names.AWAITS + ".inputReadNBytes(Ljava/io/InputStream;[BIII)I",
            Names.AWAITS + ".inputSkip(Ljava/io/InputStream;JI)J", Names.AWAITS + ".outputWrite(Ljava/io/OutputStream;II)V",
            Names.AWAITS + ".outputWrite(Ljava/io/OutputStream;[BI)V", Names.AWAITS + ".outputWrite(Ljava/io/OutputStream;[BIII)V",
            Names.AWAITS + ".socketConnect(Ljava/net/Socket;Ljava/net/SocketAddress;I)V",
            Names.AWAITS + ".socketConnectTimed(Ljava/net/Socket;Ljava/net/SocketAddress;II)V",
            Names.AWAITS + ".createSocket(Ljavax/net/SocketFactory;Ljava/lang/String;II)Ljava/net/Socket;",
            Names.AWAITS + ".createSocket(Ljavax/net/SocketFactory;Ljava/net/InetAddress;II)Ljava/net/Socket;",
            Names.AWAITS + ".createSocket(Ljavax/net/SocketFactory;Ljava/lang/String;ILjava/net/InetAddress;II)Ljava/net/Socket;",
            Names.AWAITS + ".createSocket(Ljavax/net/SocketFactory;Ljava/net/InetAddress;ILjava/net/InetAddress;II)Ljava/net/Socket;",
            "dev/flow/internal/Polling.lookup(Ljava/lang/Object;I)V",
            "dev/flow/internal/Polling.urlConnect(Ljava/lang/Object;I)V", "dev/flow/internal/Polling.blockingChannel(Ljava/lang/Object;I)V",
            "dev/flow/internal/Polling.scannerSource(Ljava/lang/Object;I)V");

    /** {@link #ALWAYS} and {@link #CONDITIONAL}. */
    public static final Set<String> ALL = union(ALWAYS, CONDITIONAL);

    private SiteConsumers() {
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }
}
