package dev.flow.spi;

import java.io.IOException;
import java.net.Socket;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;

/**
 * A {@link javax.net.SocketFactory} whose connecting {@code createSocket(host, port...)} forms are
 * {@link #createSocket()} followed by {@code bind} (for the forms with a local address) and {@code
 * connect}: in code loaded through the {@code ContinuationClassLoader} Flow runs them that way, so that the
 * connect of the {@link AsyncSocket} it returns suspends the flow instead of blocking its thread.
 *
 * <p>Implementations are thread-safe, like socket factories.
 */
public interface AsyncSocketFactory {

    /** Returns a new unconnected socket; an {@link AsyncSocket}. */
    Socket createSocket() throws IOException;

    /**
     * The TLS socket factory of {@code context} for loaded code ({@code context.getSocketFactory()} there): one whose
     * {@code createSocket(socket, host, port, autoClose)} layers TLS over this factory's sockets so that the
     * handshake, reads and writes suspend ({@link AsyncTlsSocket}). By default {@code context}'s own factory.
     */
    default SSLSocketFactory tlsSocketFactory(SSLContext context) {
        return context.getSocketFactory();
    }
}
