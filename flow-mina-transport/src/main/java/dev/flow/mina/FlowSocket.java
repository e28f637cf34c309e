package dev.flow.mina;

import dev.flow.internal.Awaits;
import dev.flow.internal.TransportInputStream;
import dev.flow.internal.TransportOutputStream;
import dev.flow.spi.AsyncSocket;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketOption;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.mina.core.future.ConnectFuture;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.transport.socket.nio.NioSession;

/**
 * A {@link Socket} over a {@link MinaTransport}: made unconnected by a {@link FlowSocketFactory} (it
 * connects through its {@link FlowConnector}), or connected by a {@link FlowServer} for a handler that takes
 * a socket. Its streams are the transport's stream views over a {@link SocketTransport}, so that code loaded
 * through the {@code ContinuationClassLoader} suspends on them; see {@link FlowSocketFactory} for the
 * semantics kept.
 *
 * <p><b>Threads.</b> Used by one thread or flow at a time, like a JDK socket; {@link #close()} may be called
 * from any thread and wakes a reader waiting on another.
 */
final class FlowSocket extends Socket implements AsyncSocket {

    private static final String CLOSED = "Socket is closed";
    /**
     * Options a {@code java.net.Socket} starts with where Flow's sessions do not, set on the connection unless
     * the socket's user set them first: Flow's connectors and servers turn Nagle's algorithm off ({@code
     * TCP_NODELAY} on) for its transports, the JDK's sockets leave it on.
     */
    private static final Map<SocketOption<?>, Object> JDK_DEFAULTS =
            Map.of(StandardSocketOptions.TCP_NODELAY, Boolean.FALSE);

    private final FlowConnector connector;
    /** Options set before the connection exists, applied when it does. Guarded by this. */
    private final Map<SocketOption<?>, Object> pending = new LinkedHashMap<>();

    private volatile boolean closed;
    private volatile boolean inputShutdown;
    private volatile boolean outputShutdown;
    private volatile int soTimeout;
    /** The address given to {@link #bind}, or {@code null}. */
    private volatile InetSocketAddress bindAddress;
    /** The attempt of a connect in progress; guarded by this. */
    private ConnectFuture connecting;
    private volatile SocketTransport transport;
    private volatile InputStream in;
    private volatile OutputStream out;
    /** The remote and local addresses once connected; kept after close, as the JDK does. */
    private volatile InetSocketAddress remote;
    private volatile InetSocketAddress local;

    /**
     * An unconnected socket of {@code connector} (or {@code null} for an accepted one), its {@code
     * soTimeout} the read timeout of {@code config}.
     */
    private FlowSocket(FlowConnector connector, dev.flow.TransportConfig config) throws SocketException {
        super((java.net.SocketImpl) null);
        this.connector = connector;
        this.soTimeout = (int) Math.min(Integer.MAX_VALUE, config.readTimeout().toMillis());
    }

    /** An unconnected socket of {@code connector}. */
    FlowSocket(FlowConnector connector) throws SocketException {
        this(connector, connector.config());
    }

    /** A socket over the accepted session of {@code t}. */
    static FlowSocket accepted(MinaTransport t) throws SocketException {
        FlowSocket s = new FlowSocket(null, t.config());
        s.connected(t);
        for (Map.Entry<SocketOption<?>, Object> e : JDK_DEFAULTS.entrySet()) {
            s.set(e.getKey(), e.getValue());
        }
        return s;
    }

    private void connected(MinaTransport t) {
        IoSession session = t.session();
        remote = (InetSocketAddress) session.getRemoteAddress();
        local = (InetSocketAddress) session.getLocalAddress();
        SocketTransport view = new SocketTransport(this, t);
        view.soTimeout(soTimeout);
        in = new TransportInputStream(view);
        out = new TransportOutputStream(view);
        transport = view;
    }

    // ---------------------------------------------------------------- connecting

    @Override
    public void connect(SocketAddress endpoint) throws IOException {
        connect(endpoint, 0);
    }

    /** Blocks until connected; a suspension point in code loaded through the {@code ContinuationClassLoader}. */
    @Override
    public void connect(SocketAddress endpoint, int timeout) throws IOException {
        Awaits.connect(this, endpoint, timeout, false);
    }

    @Override
    public Object connectAsync(SocketAddress endpoint, int timeoutMillis) throws IOException {
        if (endpoint == null) {
            throw new IllegalArgumentException("connect: The address can't be null");
        }
        if (timeoutMillis < 0) {
            throw new IllegalArgumentException("connect: timeout can't be negative");
        }
        if (closed) {
            throw new SocketException(CLOSED);
        }
        if (transport != null) {
            throw new SocketException("Already connected");
        }
        if (!(endpoint instanceof InetSocketAddress)) {
            throw new IllegalArgumentException("Unsupported address type");
        }
        InetSocketAddress address = (InetSocketAddress) endpoint;
        if (address.isUnresolved()) {
            close();
            throw new UnknownHostException(address.getHostName());
        }
        synchronized (this) {
            if (connecting != null) {
                throw new SocketException("Connection in progress");
            }
            connecting = connector.connectAsync(address, bindAddress);
            return new IoFutureAwaitable(connecting);
        }
    }

    @Override
    public void finishConnect(Object attempt) throws IOException {
        ConnectFuture f = (ConnectFuture) ((IoFutureAwaitable) attempt).future();
        synchronized (this) {
            connecting = null;
        }
        if (!f.isDone()) {
            FlowConnector.abandon(f);
            close();
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedIOException("interrupted while connecting to " + connector);
            }
            throw new SocketTimeoutException("Connect timed out");
        }
        MinaTransport t;
        try {
            t = (MinaTransport) connector.transportOf(f);
            if (closed) {
                t.close();
                throw new SocketException(CLOSED);
            }
            connected(t);
            applyPending();
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    private void applyPending() throws IOException {
        Map<SocketOption<?>, Object> options;
        synchronized (this) {
            options = new LinkedHashMap<>(pending);
            pending.clear();
        }
        JDK_DEFAULTS.forEach(options::putIfAbsent);
        for (Map.Entry<SocketOption<?>, Object> e : options.entrySet()) {
            set(e.getKey(), e.getValue());
        }
    }

    @Override
    public void bind(SocketAddress bindpoint) throws IOException {
        if (closed) {
            throw new SocketException(CLOSED);
        }
        if (isBound()) {
            throw new SocketException("Already bound");
        }
        if (bindpoint != null && !(bindpoint instanceof InetSocketAddress)) {
            throw new IllegalArgumentException("Unsupported address type");
        }
        InetSocketAddress a = (InetSocketAddress) bindpoint;
        if (a != null && a.isUnresolved()) {
            throw new SocketException("Unresolved address");
        }
        bindAddress = a != null ? a : new InetSocketAddress(0);
    }

    // ---------------------------------------------------------------- state and addresses

    @Override
    public boolean isConnected() {
        return transport != null;
    }

    @Override
    public boolean isBound() {
        return transport != null || bindAddress != null;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public boolean isInputShutdown() {
        return inputShutdown;
    }

    @Override
    public boolean isOutputShutdown() {
        return outputShutdown;
    }

    @Override
    public InetAddress getInetAddress() {
        InetSocketAddress r = remote;
        return r == null ? null : r.getAddress();
    }

    @Override
    public int getPort() {
        InetSocketAddress r = remote;
        return r == null ? 0 : r.getPort();
    }

    @Override
    public SocketAddress getRemoteSocketAddress() {
        return remote;
    }

    @Override
    public InetAddress getLocalAddress() {
        InetSocketAddress l = localOrBound();
        if (closed || l == null) {
            return new InetSocketAddress(0).getAddress();
        }
        return l.getAddress();
    }

    @Override
    public int getLocalPort() {
        InetSocketAddress l = localOrBound();
        return l == null ? -1 : l.getPort();
    }

    @Override
    public SocketAddress getLocalSocketAddress() {
        return localOrBound();
    }

    private InetSocketAddress localOrBound() {
        InetSocketAddress l = local;
        return l != null ? l : bindAddress;
    }

    /** Flow sockets have no channel. */
    @Override
    public SocketChannel getChannel() {
        return null;
    }

    // ---------------------------------------------------------------- streams

    @Override
    public InputStream getInputStream() throws IOException {
        checkOpenAndConnected();
        if (inputShutdown) {
            throw new SocketException("Socket input is shutdown");
        }
        return in;
    }

    @Override
    public OutputStream getOutputStream() throws IOException {
        checkOpenAndConnected();
        if (outputShutdown) {
            throw new SocketException("Socket output is shutdown");
        }
        return out;
    }

    /**
     * Ends the input: reads return end of stream from now on, what is buffered is discarded, and the
     * connection's receiving side is shut down.
     */
    @Override
    public void shutdownInput() throws IOException {
        checkOpenAndConnected();
        if (inputShutdown) {
            throw new SocketException("Socket input is already shutdown");
        }
        inputShutdown = true;
        SocketTransport t = transport;
        t.discardInput();
        SocketChannel c = channel(t);
        if (c != null) {
            c.shutdownInput();
        }
    }

    /**
     * Ends the output: the bytes written so far go out, then the connection's sending side is shut down
     * (the peer reads end of stream); writes fail from now on.
     */
    @Override
    public void shutdownOutput() throws IOException {
        checkOpenAndConnected();
        if (outputShutdown) {
            throw new SocketException("Socket output is already shutdown");
        }
        SocketTransport t = transport;
        SocketChannel c = channel(t);
        if (c == null) {
            throw new SocketException("shutdownOutput: not supported on " + t.remoteAddress()
                    + " (expected: a TCP connection)");
        }
        outputShutdown = true;
        t.afterWrites(() -> {
            try {
                c.shutdownOutput();
            } catch (IOException e) {
                // The connection is gone: the peer sees its end anyway.
            }
        });
    }

    /** Closes the connection (the bytes already written still go out) and ends a connect in progress. */
    @Override
    public void close() throws IOException {
        ConnectFuture attempt;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            attempt = connecting;
        }
        if (attempt != null) {
            FlowConnector.abandon(attempt);
        }
        SocketTransport t = transport;
        if (t != null) {
            t.closeConnection();
        }
    }

    /** The connection's transport, {@code null} until connected. */
    SocketTransport transport() {
        return transport;
    }

    private void checkOpenAndConnected() throws SocketException {
        if (closed) {
            throw new SocketException(CLOSED);
        }
        if (transport == null) {
            throw new SocketException("Socket is not connected");
        }
    }

    /** Throws the JDK's exception for a stream read of a closed socket. */
    void checkReadable() throws SocketException {
        if (closed) {
            throw new SocketException("Socket closed");
        }
    }

    /**
     * Throws the JDK's exception for a stream write of a closed socket, or one whose output is shut down (the JDK's
     * message there is the system's, "Broken pipe" on Linux; this one names the cause).
     */
    void checkWritable() throws SocketException {
        if (closed) {
            throw new SocketException("Socket closed");
        }
        if (outputShutdown) {
            throw new SocketException("Socket output is shutdown");
        }
    }

    // ---------------------------------------------------------------- options

    /** The per-read timeout of the streams: a read that waits this long throws {@link SocketTimeoutException}. */
    @Override
    public void setSoTimeout(int timeout) throws SocketException {
        checkOpen();
        if (timeout < 0) {
            throw new IllegalArgumentException("timeout can't be negative");
        }
        soTimeout = timeout;
        SocketTransport t = transport;
        if (t != null) {
            t.soTimeout(timeout);
        }
    }

    @Override
    public int getSoTimeout() throws SocketException {
        checkOpen();
        return soTimeout;
    }

    @Override
    public void setTcpNoDelay(boolean on) throws SocketException {
        put(StandardSocketOptions.TCP_NODELAY, on);
    }

    @Override
    public boolean getTcpNoDelay() throws SocketException {
        return getOption(StandardSocketOptions.TCP_NODELAY);
    }

    @Override
    public void setSoLinger(boolean on, int linger) throws SocketException {
        if (on && linger < 0) {
            throw new IllegalArgumentException("invalid value for SO_LINGER");
        }
        put(StandardSocketOptions.SO_LINGER, on ? Math.min(linger, 65535) : -1);
    }

    @Override
    public int getSoLinger() throws SocketException {
        return getOption(StandardSocketOptions.SO_LINGER);
    }

    @Override
    public void setKeepAlive(boolean on) throws SocketException {
        put(StandardSocketOptions.SO_KEEPALIVE, on);
    }

    @Override
    public boolean getKeepAlive() throws SocketException {
        return getOption(StandardSocketOptions.SO_KEEPALIVE);
    }

    @Override
    public void setSendBufferSize(int size) throws SocketException {
        if (size <= 0) {
            throw new IllegalArgumentException("negative send size");
        }
        put(StandardSocketOptions.SO_SNDBUF, size);
    }

    @Override
    public int getSendBufferSize() throws SocketException {
        return getOption(StandardSocketOptions.SO_SNDBUF);
    }

    @Override
    public void setReceiveBufferSize(int size) throws SocketException {
        if (size <= 0) {
            throw new IllegalArgumentException("invalid receive size");
        }
        put(StandardSocketOptions.SO_RCVBUF, size);
    }

    @Override
    public int getReceiveBufferSize() throws SocketException {
        return getOption(StandardSocketOptions.SO_RCVBUF);
    }

    @Override
    public void setReuseAddress(boolean on) throws SocketException {
        put(StandardSocketOptions.SO_REUSEADDR, on);
    }

    @Override
    public boolean getReuseAddress() throws SocketException {
        return getOption(StandardSocketOptions.SO_REUSEADDR);
    }

    @Override
    public void setTrafficClass(int tc) throws SocketException {
        if (tc < 0 || tc > 255) {
            throw new IllegalArgumentException("tc is not in range 0 -- 255");
        }
        put(StandardSocketOptions.IP_TOS, tc);
    }

    @Override
    public int getTrafficClass() throws SocketException {
        return getOption(StandardSocketOptions.IP_TOS);
    }

    /** Urgent data inline cannot be honoured: {@code true} is refused, {@code false} is the state. */
    @Override
    public void setOOBInline(boolean on) throws SocketException {
        checkOpen();
        if (on) {
            throw new SocketException("SO_OOBINLINE: true (expected: false; Flow sockets do not receive urgent data)");
        }
    }

    @Override
    public boolean getOOBInline() throws SocketException {
        checkOpen();
        return false;
    }

    /** Refused: Flow sockets send no urgent data. */
    @Override
    public void sendUrgentData(int data) throws IOException {
        checkOpen();
        throw new SocketException("sendUrgentData: not supported (Flow sockets send no TCP urgent data)");
    }

    @Override
    public <T> Socket setOption(SocketOption<T> name, T value) throws IOException {
        put(name, value);
        return this;
    }

    private void put(SocketOption<?> name, Object value) throws SocketException {
        java.util.Objects.requireNonNull(name); // the JDK's NullPointerException, no message
        checkOpen();
        checkSupported(name);
        if (transport == null) {
            synchronized (this) {
                if (transport == null) {
                    pending.put(name, value);
                    return;
                }
            }
        }
        set(name, value);
    }

    @SuppressWarnings("unchecked")
    private void set(SocketOption<?> name, Object value) throws SocketException {
        try {
            channel().setOption((SocketOption<Object>) name, value);
        } catch (ClosedChannelException e) {
            throw new SocketException(CLOSED);
        } catch (IllegalArgumentException e) {
            throw new SocketException("Bad value for " + name + ": " + value);
        } catch (SocketException e) {
            throw e;
        } catch (IOException e) {
            throw new SocketException(name + ": " + e.getMessage());
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T getOption(SocketOption<T> name) throws SocketException {
        java.util.Objects.requireNonNull(name); // the JDK's NullPointerException, no message
        checkOpen();
        checkSupported(name);
        if (transport == null) {
            synchronized (this) {
                if (transport == null) {
                    Object v = pending.get(name);
                    return v != null ? (T) v : Defaults.value(name);
                }
            }
        }
        try {
            return channel().getOption(name);
        } catch (ClosedChannelException e) {
            throw new SocketException(CLOSED);
        } catch (SocketException e) {
            throw e;
        } catch (IOException e) {
            throw new SocketException(name + ": " + e.getMessage());
        }
    }

    @Override
    public Set<SocketOption<?>> supportedOptions() {
        return Defaults.SUPPORTED;
    }

    private static void checkSupported(SocketOption<?> name) {
        if (!Defaults.SUPPORTED.contains(name)) {
            throw new UnsupportedOperationException("'" + name + "' not supported");
        }
    }

    private void checkOpen() throws SocketException {
        if (closed) {
            throw new SocketException(CLOSED);
        }
    }

    private SocketChannel channel() throws SocketException {
        SocketChannel c = channel(transport);
        if (c == null) {
            throw new SocketException("socket options: not supported on " + transport.remoteAddress()
                    + " (expected: a TCP connection)");
        }
        return c;
    }

    private static SocketChannel channel(SocketTransport t) {
        IoSession s = t.session();
        return s instanceof NioSession && ((NioSession) s).getChannel() instanceof SocketChannel
                ? (SocketChannel) ((NioSession) s).getChannel() : null;
    }

    @Override
    public String toString() {
        InetSocketAddress r = remote;
        InetSocketAddress l = local;
        if (r == null) {
            return "Socket[unconnected]";
        }
        return "Socket[addr=" + r.getAddress() + ",port=" + r.getPort() + ",localport=" + l.getPort() + "]";
    }

    /** The options a TCP socket channel supports, and their values on an unconnected one, read once. */
    private static final class Defaults {
        static final Set<SocketOption<?>> SUPPORTED;
        private static final Map<SocketOption<?>, Object> VALUES = new java.util.HashMap<>();

        static {
            try (SocketChannel c = SocketChannel.open()) {
                SUPPORTED = Set.copyOf(c.supportedOptions());
                for (SocketOption<?> o : SUPPORTED) {
                    try {
                        VALUES.put(o, c.getOption(o));
                    } catch (IOException | RuntimeException e) {
                        // no default to report for this one: getOption before connect returns null
                    }
                }
            } catch (IOException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        @SuppressWarnings("unchecked")
        static <T> T value(SocketOption<T> name) {
            return (T) VALUES.get(name);
        }
    }
}
