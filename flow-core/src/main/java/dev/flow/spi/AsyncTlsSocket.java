package dev.flow.spi;

import java.io.IOException;

/**
 * The non-blocking side of an {@link javax.net.ssl.SSLSocket}'s handshake: start it, wait, finish it. An
 * {@code SSLSocket} implementing it handshakes without holding a thread when {@code startHandshake()} or {@code
 * getSession()} is called from code loaded through the {@code ContinuationClassLoader}; its own methods must behave
 * like exactly that sequence, blocking.
 *
 * <p>Implemented by {@code SSLSocket} subclasses; used by one thread or flow at a time, like the socket.
 */
public interface AsyncTlsSocket {

    /**
     * Starts the handshake if it has not started, and returns it: something a flow can await (an {@link
     * Awaitable}); {@code null} if it is complete or has failed already (then {@link #finishHandshake} reports it).
     *
     * @throws IOException as {@code SSLSocket.startHandshake()}: the socket is closed
     */
    Object startHandshakeAsync() throws IOException;

    /**
     * Ends the wait for the handshake {@link #startHandshakeAsync()} returned: returns if it succeeded, else throws. A
     * handshake that is not done yet has timed out (the socket's {@code soTimeout}), or its wait was interrupted.
     *
     * @throws java.net.SocketTimeoutException if it is not done and the thread is not interrupted
     * @throws java.io.InterruptedIOException if it is not done and the thread is interrupted (the status is kept)
     * @throws javax.net.ssl.SSLException if the handshake failed
     */
    void finishHandshake(Object handshake) throws IOException;

    /**
     * The session if the handshake is complete, else one without a cipher suite ({@code SSL_NULL_WITH_NULL_NULL}), as
     * the JDK's {@code getSession()} returns after a failed handshake. Never waits.
     */
    javax.net.ssl.SSLSession currentSession();
}
