package dev.flow.spi;

import java.io.IOException;
import java.net.SocketAddress;

/**
 * The non-blocking side of a {@link java.net.Socket}'s {@code connect}: start a connection attempt, wait
 * for it, then finish it. A socket implementing it connects without holding a thread when {@code
 * socket.connect(...)} is called from code loaded through the {@code ContinuationClassLoader}; its own
 * {@code connect} must behave like exactly that sequence, blocking.
 *
 * <p>Implemented by {@link java.net.Socket} subclasses; used by one thread or flow at a time, like the socket.
 */
public interface AsyncSocket {

    /**
     * Checks the arguments and the socket's state as {@code Socket.connect(endpoint, timeout)} does and
     * starts connecting; returns the attempt, something a flow can await (an {@link Awaitable}, a future, or
     * a type with an {@link AwaitableAdapter}).
     *
     * @param timeoutMillis the connect timeout, {@code 0} for none
     * @throws IOException as {@code Socket.connect}: the socket is closed or connected, the host is unknown
     * @throws IllegalArgumentException as {@code Socket.connect}: a null or unsupported endpoint, a negative timeout
     */
    Object connectAsync(SocketAddress endpoint, int timeoutMillis) throws IOException;

    /**
     * Ends an attempt after the wait: connects the socket if the attempt succeeded, else releases it and
     * throws. An attempt that is not done yet has timed out, or its wait was interrupted.
     *
     * @throws java.net.SocketTimeoutException if the attempt is not done and the thread is not interrupted
     * @throws java.io.InterruptedIOException if it is not done and the thread is interrupted (the status is kept)
     * @throws java.net.ConnectException if the attempt failed
     */
    void finishConnect(Object attempt) throws IOException;
}
