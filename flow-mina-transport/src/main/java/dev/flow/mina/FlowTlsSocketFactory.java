package dev.flow.mina;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.util.Objects;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;

/**
 * The TLS socket factory of an {@link SSLContext} that code loaded through the {@code ContinuationClassLoader} gets
 * for {@code context.getSocketFactory()} and {@code SSLSocketFactory.getDefault()}: {@link #createSocket(Socket,
 * String, int, boolean)} layers TLS over one of Flow's sockets as a {@link FlowTlsSocket}, whose handshake, reads and
 * writes suspend; every other socket, and every other form, is the context's own factory's (the JDK's {@code
 * SSLSocket}, which blocks, and pins in a flow).
 *
 * <p>Immutable and thread-safe.
 */
final class FlowTlsSocketFactory extends SSLSocketFactory {

    private final SSLContext context;
    private final SSLSocketFactory jdk;

    FlowTlsSocketFactory(SSLContext context) {
        this.context = Objects.requireNonNull(context, "context");
        this.jdk = context.getSocketFactory();
    }

    /**
     * TLS over {@code s}: a {@link FlowTlsSocket} if {@code s} is a connected socket of Flow's without TLS of its own
     * (a connector's), else the JDK's {@code SSLSocket}. Nothing is sent until the handshake starts.
     */
    @Override
    public Socket createSocket(Socket s, String host, int port, boolean autoClose) throws IOException {
        if (s instanceof FlowSocket && s.isConnected() && !s.isClosed() && !((FlowSocket) s).transport().isTls()) {
            return FlowTlsSocket.layer((FlowSocket) s, context, host, port);
        }
        return jdk.createSocket(s, host, port, autoClose);
    }

    @Override
    public Socket createSocket(Socket s, InputStream consumed, boolean autoClose) throws IOException {
        return jdk.createSocket(s, consumed, autoClose);
    }

    @Override
    public Socket createSocket() throws IOException {
        return jdk.createSocket();
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return jdk.createSocket(host, port);
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return jdk.createSocket(host, port, localHost, localPort);
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return jdk.createSocket(host, port);
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
        return jdk.createSocket(address, port, localAddress, localPort);
    }

    @Override
    public String[] getDefaultCipherSuites() {
        return jdk.getDefaultCipherSuites();
    }

    @Override
    public String[] getSupportedCipherSuites() {
        return jdk.getSupportedCipherSuites();
    }

    @Override
    public String toString() {
        return "FlowTlsSocketFactory[" + context.getProtocol() + "]";
    }
}
