package dev.flow.mina;

import dev.flow.TlsUpgrade;
import dev.flow.internal.Awaits;
import dev.flow.spi.AsyncTlsSocket;
import dev.flow.spi.Awaitable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketOption;
import java.net.SocketTimeoutException;
import java.nio.channels.SocketChannel;
import java.security.Principal;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;
import javax.net.ssl.HandshakeCompletedEvent;
import javax.net.ssl.HandshakeCompletedListener;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocket;

/**
 * TLS layered over a {@link FlowSocket} ({@link FlowTlsSocketFactory}): the connection's MINA session gets the TLS
 * filter, with an {@link SSLEngine} of the context for the host and port given, configured as the code configures
 * this socket (its protocols, suites, {@code SSLParameters}, client mode, application protocols: the engine and the
 * JDK's socket share those settings), and the plain socket's streams carry the plaintext. The handshake starts at
 * {@link #startHandshake()}, {@link #getSession()} or the first read or write, as the JDK's does; in code loaded
 * through the {@code ContinuationClassLoader} it suspends ({@link AsyncTlsSocket}), and so do the reads and writes.
 * A failed handshake throws the engine's {@link SSLException} and closes the socket. Everything that is not TLS
 * (addresses, options, {@code soTimeout}) is the plain socket's.
 *
 * <p>Differences from the JDK's layered {@code SSLSocket} (README): closing it closes the connection whatever {@code
 * autoClose} said (the connection cannot go back to plain text; a JDK peer reads the end of the stream); a second
 * {@code startHandshake()} does nothing (the JDK's renegotiates or updates keys); {@code shutdownInput()}, {@code
 * shutdownOutput()}, {@code sendUrgentData} and {@code setOOBInline(true)} throw {@code SocketException}.
 *
 * <p><b>Threads.</b> Used by one thread or flow at a time, like a JDK socket; {@link #close()} from any.
 */
final class FlowTlsSocket extends SSLSocket implements AsyncTlsSocket {

    /** Long enough never to end a handshake: the wait for one is bounded by the socket's {@code soTimeout} instead. */
    private static final Duration NO_HANDSHAKE_TIMEOUT = Duration.ofDays(365);

    private final FlowSocket plain;
    private final SocketTransport transport;
    private final SSLContext context;
    private final SSLEngine engine;
    private final List<HandshakeCompletedListener> listeners = new CopyOnWriteArrayList<>();
    /** The handshake once started; guarded by this. */
    private Awaitable handshake;
    /** The session once the handshake is complete. */
    private volatile SSLSession session;
    /** Why the handshake failed, once it has. */
    private volatile SSLException failure;
    private volatile boolean closed;

    private FlowTlsSocket(FlowSocket plain, SocketTransport transport, SSLContext context, SSLEngine engine) {
        this.plain = plain;
        this.transport = transport;
        this.context = context;
        this.engine = engine;
    }

    /**
     * TLS over the connected {@code plain} socket for {@code host} and {@code port} (server name indication, session
     * reuse), in client mode as the JDK's layered sockets start; nothing is sent until the handshake starts. There is
     * no {@code autoClose}: closing the TLS socket always closes the connection (see the class comment).
     */
    static FlowTlsSocket layer(FlowSocket plain, SSLContext context, String host, int port) throws IOException {
        SocketTransport t = plain.transport();
        if (t == null) {
            throw new SocketException("Socket is not connected");
        }
        SSLEngine engine = host != null ? context.createSSLEngine(host, port) : context.createSSLEngine();
        engine.setUseClientMode(true);
        FlowTlsSocket s = new FlowTlsSocket(plain, t, context, engine);
        t.layer(s);
        return s;
    }

    // ---------------------------------------------------------------- handshake

    @Override
    public synchronized Object startHandshakeAsync() throws IOException {
        if (isClosed()) {
            throw new SocketException("Socket is closed");
        }
        if (session != null || failure != null) {
            return null;
        }
        if (handshake == null) {
            TlsUpgrade upgrade = TlsUpgrade.client(context).handshakeTimeout(NO_HANDSHAKE_TIMEOUT).build();
            handshake = transport.startTls(upgrade, engine);
        }
        return handshake;
    }

    @Override
    public void finishHandshake(Object started) throws IOException {
        if (started == null) {
            SSLException f = failure;
            if (f != null) {
                throw copy(f);
            }
            return;
        }
        Awaitable h = (Awaitable) started;
        if (!h.isDone()) {
            // As the JDK's: the socket stays open, and a later call waits for the same handshake.
            throw Thread.currentThread().isInterrupted()
                    ? new InterruptedIOException("interrupted during the TLS handshake with " + getRemoteSocketAddress())
                    : new SocketTimeoutException("Read timed out");
        }
        SSLSession s;
        try {
            s = transport.finishTls(h);
        } catch (IOException e) {
            throw failed(e);
        }
        completed(s);
    }

    /** Records a failed handshake as the engine's exception (or one like the JDK's for a lost connection), closes. */
    private SSLException failed(IOException e) throws IOException {
        SSLException cause = null;
        for (Throwable t = e; t != null && cause == null; t = t.getCause()) {
            if (t instanceof SSLException) {
                cause = (SSLException) t;
            }
        }
        SSLException f = cause instanceof SSLHandshakeException || cause == null
                ? new SSLHandshakeException(cause != null ? cause.getMessage() : "Remote host terminated the handshake")
                : new SSLException(cause.getMessage());
        f.initCause(e);
        synchronized (this) {
            if (failure == null) {
                failure = f;
            }
        }
        close();
        return f;
    }

    private static SSLException copy(SSLException f) {
        SSLException e = f instanceof SSLHandshakeException ? new SSLHandshakeException(f.getMessage())
                : new SSLException(f.getMessage());
        e.initCause(f);
        return e;
    }

    private void completed(SSLSession s) {
        synchronized (this) {
            if (session != null) {
                return;
            }
            session = s;
        }
        if (!listeners.isEmpty()) {
            HandshakeCompletedEvent event = new HandshakeCompletedEvent(this, s);
            for (HandshakeCompletedListener l : listeners) {
                l.handshakeCompleted(event);
            }
        }
    }

    /**
     * For the plain socket's streams: {@code null} once the handshake is complete (throws if it failed); else the
     * handshake to wait for, started if it had not.
     */
    Awaitable handshakeForIo() throws IOException {
        if (session != null) {
            return null;
        }
        Object started = startHandshakeAsync();
        if (started != null && !((Awaitable) started).isDone()) {
            return (Awaitable) started;
        }
        finishHandshake(started);
        return null;
    }

    /** The handshake if it has started and is not done, else {@code null}: what a read waits for. */
    synchronized Awaitable pendingHandshake() {
        return handshake != null && !handshake.isDone() ? handshake : null;
    }

    /** Handshakes, blocking (a pinned wait in a flow; loaded code's calls suspend instead, see the class comment). */
    @Override
    public void startHandshake() throws IOException {
        Awaits.handshake(this, false);
    }

    /**
     * The session, after a handshake run first if none has (blocking, as {@link #startHandshake()}); a failed
     * handshake gives a session without a cipher suite ({@code SSL_NULL_WITH_NULL_NULL}), as the JDK's.
     */
    @Override
    public SSLSession getSession() {
        if (session == null) {
            try {
                Awaits.handshake(this, false);
            } catch (IOException e) {
                // As the JDK's: getSession() shows a failed handshake by the session it returns.
            }
        }
        return currentSession();
    }

    @Override
    public SSLSession currentSession() {
        SSLSession s = session;
        return s != null ? s : NullSession.INSTANCE;
    }

    @Override
    public synchronized SSLSession getHandshakeSession() {
        return session == null && handshake != null ? engine.getHandshakeSession() : null;
    }

    @Override
    public void addHandshakeCompletedListener(HandshakeCompletedListener listener) {
        if (listener == null) {
            throw new IllegalArgumentException("listener is null");
        }
        listeners.add(listener);
    }

    @Override
    public void removeHandshakeCompletedListener(HandshakeCompletedListener listener) {
        if (listener == null) {
            throw new IllegalArgumentException("listener is null");
        }
        if (!listeners.remove(listener)) {
            throw new IllegalArgumentException("listener not registered");
        }
    }

    // ---------------------------------------------------------------- TLS settings: the engine's

    @Override
    public String[] getSupportedCipherSuites() {
        return engine.getSupportedCipherSuites();
    }

    @Override
    public String[] getEnabledCipherSuites() {
        return engine.getEnabledCipherSuites();
    }

    @Override
    public void setEnabledCipherSuites(String[] suites) {
        engine.setEnabledCipherSuites(suites);
    }

    @Override
    public String[] getSupportedProtocols() {
        return engine.getSupportedProtocols();
    }

    @Override
    public String[] getEnabledProtocols() {
        return engine.getEnabledProtocols();
    }

    @Override
    public void setEnabledProtocols(String[] protocols) {
        engine.setEnabledProtocols(protocols);
    }

    @Override
    public void setUseClientMode(boolean mode) {
        engine.setUseClientMode(mode);
    }

    @Override
    public boolean getUseClientMode() {
        return engine.getUseClientMode();
    }

    @Override
    public void setNeedClientAuth(boolean need) {
        engine.setNeedClientAuth(need);
    }

    @Override
    public boolean getNeedClientAuth() {
        return engine.getNeedClientAuth();
    }

    @Override
    public void setWantClientAuth(boolean want) {
        engine.setWantClientAuth(want);
    }

    @Override
    public boolean getWantClientAuth() {
        return engine.getWantClientAuth();
    }

    @Override
    public void setEnableSessionCreation(boolean flag) {
        engine.setEnableSessionCreation(flag);
    }

    @Override
    public boolean getEnableSessionCreation() {
        return engine.getEnableSessionCreation();
    }

    @Override
    public SSLParameters getSSLParameters() {
        return engine.getSSLParameters();
    }

    @Override
    public void setSSLParameters(SSLParameters params) {
        engine.setSSLParameters(params);
    }

    @Override
    public String getApplicationProtocol() {
        return engine.getApplicationProtocol();
    }

    @Override
    public String getHandshakeApplicationProtocol() {
        return engine.getHandshakeApplicationProtocol();
    }

    @Override
    public void setHandshakeApplicationProtocolSelector(BiFunction<SSLSocket, List<String>, String> selector) {
        engine.setHandshakeApplicationProtocolSelector(
                selector == null ? null : (e, protocols) -> selector.apply(this, protocols));
    }

    // ---------------------------------------------------------------- the socket: the plain one's

    @Override
    public InputStream getInputStream() throws IOException {
        if (closed) {
            throw new SocketException("Socket is closed");
        }
        return plain.getInputStream();
    }

    @Override
    public OutputStream getOutputStream() throws IOException {
        if (closed) {
            throw new SocketException("Socket is closed");
        }
        return plain.getOutputStream();
    }

    /** Closes the connection, whatever {@code autoClose} said (see the class comment). */
    @Override
    public void close() throws IOException {
        closed = true;
        plain.close();
    }

    @Override
    public boolean isClosed() {
        return closed || plain.isClosed();
    }

    @Override
    public void connect(SocketAddress endpoint) throws IOException {
        connect(endpoint, 0);
    }

    @Override
    public void connect(SocketAddress endpoint, int timeout) throws IOException {
        throw new SocketException(isClosed() ? "Socket is closed" : "Already connected");
    }

    @Override
    public void bind(SocketAddress bindpoint) throws IOException {
        throw new SocketException("Underlying socket should already be connected");
    }

    @Override
    public void shutdownInput() throws IOException {
        throw new SocketException("shutdownInput: not supported by Flow's TLS sockets (expected: close())");
    }

    @Override
    public void shutdownOutput() throws IOException {
        throw new SocketException("shutdownOutput: not supported by Flow's TLS sockets (expected: close())");
    }

    @Override
    public void sendUrgentData(int data) throws IOException {
        throw new SocketException("sendUrgentData: not supported by TLS sockets");
    }

    @Override
    public void setOOBInline(boolean on) throws SocketException {
        if (on) {
            throw new SocketException("setOOBInline(true): not supported by TLS sockets");
        }
        plain.setOOBInline(false);
    }

    @Override
    public boolean getOOBInline() throws SocketException {
        return plain.getOOBInline();
    }

    @Override
    public boolean isConnected() {
        return plain.isConnected();
    }

    @Override
    public boolean isBound() {
        return plain.isBound();
    }

    @Override
    public boolean isInputShutdown() {
        return plain.isInputShutdown();
    }

    @Override
    public boolean isOutputShutdown() {
        return plain.isOutputShutdown();
    }

    @Override
    public InetAddress getInetAddress() {
        return plain.getInetAddress();
    }

    @Override
    public int getPort() {
        return plain.getPort();
    }

    @Override
    public SocketAddress getRemoteSocketAddress() {
        return plain.getRemoteSocketAddress();
    }

    @Override
    public InetAddress getLocalAddress() {
        return plain.getLocalAddress();
    }

    @Override
    public int getLocalPort() {
        return plain.getLocalPort();
    }

    @Override
    public SocketAddress getLocalSocketAddress() {
        return plain.getLocalSocketAddress();
    }

    @Override
    public SocketChannel getChannel() {
        return null;
    }

    @Override
    public void setSoTimeout(int timeout) throws SocketException {
        plain.setSoTimeout(timeout);
    }

    @Override
    public int getSoTimeout() throws SocketException {
        return plain.getSoTimeout();
    }

    @Override
    public void setTcpNoDelay(boolean on) throws SocketException {
        plain.setTcpNoDelay(on);
    }

    @Override
    public boolean getTcpNoDelay() throws SocketException {
        return plain.getTcpNoDelay();
    }

    @Override
    public void setSoLinger(boolean on, int linger) throws SocketException {
        plain.setSoLinger(on, linger);
    }

    @Override
    public int getSoLinger() throws SocketException {
        return plain.getSoLinger();
    }

    @Override
    public void setKeepAlive(boolean on) throws SocketException {
        plain.setKeepAlive(on);
    }

    @Override
    public boolean getKeepAlive() throws SocketException {
        return plain.getKeepAlive();
    }

    @Override
    public void setSendBufferSize(int size) throws SocketException {
        plain.setSendBufferSize(size);
    }

    @Override
    public int getSendBufferSize() throws SocketException {
        return plain.getSendBufferSize();
    }

    @Override
    public void setReceiveBufferSize(int size) throws SocketException {
        plain.setReceiveBufferSize(size);
    }

    @Override
    public int getReceiveBufferSize() throws SocketException {
        return plain.getReceiveBufferSize();
    }

    @Override
    public void setReuseAddress(boolean on) throws SocketException {
        plain.setReuseAddress(on);
    }

    @Override
    public boolean getReuseAddress() throws SocketException {
        return plain.getReuseAddress();
    }

    @Override
    public void setTrafficClass(int tc) throws SocketException {
        plain.setTrafficClass(tc);
    }

    @Override
    public int getTrafficClass() throws SocketException {
        return plain.getTrafficClass();
    }

    @Override
    public <T> Socket setOption(SocketOption<T> name, T value) throws IOException {
        plain.setOption(name, value);
        return this;
    }

    @Override
    public <T> T getOption(SocketOption<T> name) throws IOException {
        return plain.getOption(name);
    }

    @Override
    public Set<SocketOption<?>> supportedOptions() {
        return plain.supportedOptions();
    }

    @Override
    public String toString() {
        SSLSession s = session;
        return "FlowTlsSocket[" + (s != null ? s.getProtocol() + " " + s.getCipherSuite() : "not handshaken") + ", "
                + plain + "]";
    }

    /** The session of a socket whose handshake failed, as the JDK's: no cipher suite, no peer. */
    private static final class NullSession implements SSLSession {
        static final NullSession INSTANCE = new NullSession();
        private final long created = System.currentTimeMillis();

        @Override
        public byte[] getId() {
            return new byte[0];
        }

        @Override
        public SSLSessionContext getSessionContext() {
            return null;
        }

        @Override
        public long getCreationTime() {
            return created;
        }

        @Override
        public long getLastAccessedTime() {
            return created;
        }

        @Override
        public void invalidate() {
        }

        @Override
        public boolean isValid() {
            return false;
        }

        @Override
        public void putValue(String name, Object value) {
        }

        @Override
        public Object getValue(String name) {
            return null;
        }

        @Override
        public void removeValue(String name) {
        }

        @Override
        public String[] getValueNames() {
            return new String[0];
        }

        @Override
        public Certificate[] getPeerCertificates() throws SSLPeerUnverifiedException {
            throw new SSLPeerUnverifiedException("peer not authenticated");
        }

        @Override
        public Certificate[] getLocalCertificates() {
            return null;
        }

        @Override
        public Principal getPeerPrincipal() throws SSLPeerUnverifiedException {
            throw new SSLPeerUnverifiedException("peer not authenticated");
        }

        @Override
        public Principal getLocalPrincipal() {
            return null;
        }

        @Override
        public String getCipherSuite() {
            return "SSL_NULL_WITH_NULL_NULL";
        }

        @Override
        public String getProtocol() {
            return "NONE";
        }

        @Override
        public String getPeerHost() {
            return null;
        }

        @Override
        public int getPeerPort() {
            return -1;
        }

        @Override
        public int getPacketBufferSize() {
            return 16709;
        }

        @Override
        public int getApplicationBufferSize() {
            return 16384;
        }
    }
}
