package dev.flow.spi;

import dev.flow.Connector;
import dev.flow.Transport;
import java.io.IOException;

/**
 * The non-blocking side of a {@link Connector}: start a connection attempt, wait for it, then take
 * the transport. {@link Connector#connect()} must behave like exactly that sequence.
 */
public interface AsyncConnector extends Connector {

    /**
     * Starts a connection attempt and returns it; the attempt is something a flow can await (an
     * {@link Awaitable}, a future, or a type with an {@link AwaitableAdapter}).
     */
    Object connectAsync() throws IOException;

    /**
     * Returns the transport of a completed attempt.
     *
     * @throws IOException if the attempt failed
     */
    Transport transportOf(Object attempt) throws IOException;

    /**
     * Gives up an attempt that is not done (its wait was interrupted): cancels it, and closes its
     * connection should it complete anyway. Default: nothing.
     */
    default void abandon(Object attempt) {
    }
}
