package dev.flow.mina;

import dev.flow.spi.AsyncSocketFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.util.Objects;
import javax.net.SocketFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;

/**
 * A {@link SocketFactory} whose sockets connect over TCP through a {@link FlowConnector}, for existing
 * blocking code and client libraries. In code loaded through the {@code ContinuationClassLoader} the
 * socket's {@code connect}, the factory's connecting {@code createSocket(host, port...)} forms and the reads,
 * writes and flushes of {@code socket.getInputStream()/getOutputStream()} are suspension points; elsewhere
 * (sync mode, plain threads) they block like a JDK socket's. A JDK decorator around the streams ({@code
 * BufferedInputStream}, {@code DataInputStream}, ...) waits inside JDK code: there the flow pins.
 *
 * <p><b>Two ways to get one.</b> {@link FlowConnector#socketFactory()} gives a factory over that connector
 * (its configuration, its lifetime: {@code connector.close()} closes the sockets). The public no-arg
 * constructor, for libraries that instantiate their factory by class name (pgjdbc's {@code socketFactory}
 * property) uses the {@linkplain #defaultConnector() default connector}, and so does {@link #getDefault()}, which
 * hides {@code SocketFactory.getDefault()} for libraries that call it on the class they are given by name
 * (Jakarta Mail's {@code mail.smtp.socketFactory.class}: without it they would get the JDK's plain sockets).
 * Registered as the {@code dev.flow.spi.AsyncSocketFactory} service, it also makes the sockets that loaded code
 * creates with {@code java.net.Socket}'s constructors (see {@link MinaSuspensionPoints}).
 *
 * <p><b>Socket semantics kept</b> (as {@code java.net.Socket}): {@code setSoTimeout} is the per-read timeout
 * of the input stream (a read waiting longer throws {@link java.net.SocketTimeoutException}{@code ("Read timed
 * out")}, as the JDK's; the socket stays usable); {@code connect(address, timeout)} throws {@code SocketTimeoutException("Connect timed out")}
 * and closes the socket; {@code shutdownInput()} (reads return end of stream) and {@code shutdownOutput()}
 * (the peer reads end of stream after the bytes written); local and remote addresses; {@code isConnected},
 * {@code isBound}, {@code isClosed}; use after {@code close()} throws {@code SocketException("Socket is
 * closed")} (stream reads and writes: {@code "Socket closed"}), as the JDK's. The options of a TCP {@link
 * java.nio.channels.SocketChannel} ({@code TCP_NODELAY}, {@code SO_KEEPALIVE}, {@code SO_LINGER}, {@code
 * SO_SNDBUF}, {@code SO_RCVBUF}, {@code SO_REUSEADDR}, {@code IP_TOS}, ...) are set on the connection (set
 * before {@code connect}, they are applied as soon as it is established), and start as the JDK's do ({@code
 * TCP_NODELAY} off, where Flow's own transports turn it on); {@code setOption} of any other
 * throws {@link UnsupportedOperationException} naming it, {@code setOOBInline(true)} and {@code
 * sendUrgentData} throw {@link java.net.SocketException}. {@code setPerformancePreferences} does nothing, as
 * in the JDK. Differences: {@code bind} before {@code connect} binds when connecting (until then {@code
 * getLocalPort()} returns the port asked for); {@code getChannel()} returns {@code null}; a refused connect's
 * {@link java.net.ConnectException} names the address ({@code "cannot connect to /127.0.0.1:6379: Connection
 * refused"}; the JDK's says {@code "Connection refused"}); a connect that fails closes the socket as JDK 25's
 * does (JDK 17's stays open); a write after {@code shutdownOutput()} throws {@code SocketException("Socket output
 * is shutdown")}, and one after the peer reset the connection {@code SocketException("Connection reset")}, where
 * the JDK reports the system's error ({@code "Broken pipe"} on Linux). A failed connection's reads and writes
 * throw {@link java.net.SocketException}s with the system's message, as the JDK's (Flow's exception naming the
 * peer is their cause).
 *
 * <p><b>Threads.</b> Thread-safe, like socket factories; each socket is used by one thread or flow at a time.
 */
public final class FlowSocketFactory extends SocketFactory implements AsyncSocketFactory {

    private final FlowConnector connector;

    /** A factory over the {@linkplain #defaultConnector() default connector}. */
    public FlowSocketFactory() {
        this(DefaultConnector.INSTANCE);
    }

    FlowSocketFactory(FlowConnector connector) {
        this.connector = Objects.requireNonNull(connector, "connector");
    }

    /**
     * A factory over the {@linkplain #defaultConnector() default connector}, always the same one. Hides {@link
     * SocketFactory#getDefault()} (the JDK's plain sockets), which libraries given a factory class name call
     * reflectively on that class (Jakarta Mail's {@code SocketFetcher}).
     */
    public static SocketFactory getDefault() {
        return DefaultConnector.FACTORY;
    }

    /**
     * The connector behind factories made with the no-arg constructor: created on first use with {@code
     * TransportConfig.DEFAULT} (no read timeout but the sockets' {@code soTimeout}), MINA's connect timeout
     * (60 s), one I/O thread per processor, the default {@link Dispatch#ADAPTIVE} (a library flow whose runs
     * are short resumes on the I/O thread that read its reply, whichever scheduler it belongs to, until it
     * blocks in a pinned wait; then on its scheduler's workers), and daemon threads, so that it never keeps the
     * JVM running. It lives as long as the JVM and is never closed by Flow; do not close it (its sockets
     * would fail and new ones could not connect). For other settings, build a connector and pass {@link
     * FlowConnector#socketFactory()} to the library instead.
     */
    public static FlowConnector defaultConnector() {
        return DefaultConnector.INSTANCE;
    }

    /** Returns a new unconnected socket; connect it with {@code connect(address[, timeout])}. */
    @Override
    public Socket createSocket() throws IOException {
        return new FlowSocket(connector);
    }

    /** A socket connected to {@code host} ({@code null}: the loopback address) and {@code port}. */
    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return connected(host != null ? new InetSocketAddress(host, port)
                : new InetSocketAddress(InetAddress.getLoopbackAddress(), port), null);
    }

    /** A socket connected to {@code host} and {@code port}; a null {@code host} throws as the JDK's factory does. */
    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return connected(new InetSocketAddress(Objects.requireNonNull(host), port), null);
    }

    /** A socket bound to {@code localHost} and {@code localPort}, connected to {@code host} and {@code port}. */
    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return connected(host != null ? new InetSocketAddress(host, port)
                : new InetSocketAddress(InetAddress.getLoopbackAddress(), port), new InetSocketAddress(localHost, localPort));
    }

    /** A socket bound to {@code localAddress} and {@code localPort}, connected to {@code address} and {@code port}. */
    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
        return connected(new InetSocketAddress(Objects.requireNonNull(address), port),
                new InetSocketAddress(localAddress, localPort));
    }

    private Socket connected(SocketAddress remote, SocketAddress local) throws IOException {
        Socket s = createSocket();
        boolean ok = false;
        try {
            if (local != null) {
                s.bind(local);
            }
            s.connect(remote);
            ok = true;
            return s;
        } finally {
            if (!ok) {
                s.close();
            }
        }
    }

    /**
     * The TLS factory of {@code context} that loaded code gets for {@code context.getSocketFactory()}: it layers TLS
     * over Flow's sockets so that the handshake, reads and writes suspend; anything else is the context's own
     * factory's.
     */
    @Override
    public SSLSocketFactory tlsSocketFactory(SSLContext context) {
        return new FlowTlsSocketFactory(context);
    }

    @Override
    public String toString() {
        return "FlowSocketFactory[" + connector + "]";
    }

    /** Holds the default connector and its factory, created when first used. */
    private static final class DefaultConnector {
        static final FlowConnector INSTANCE = FlowConnector.builder().daemonThreads(true).build();
        static final FlowSocketFactory FACTORY = new FlowSocketFactory(INSTANCE);
    }
}
