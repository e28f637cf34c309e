package dev.flow.spi;

import java.io.IOException;
import java.net.Socket;

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
}
