package dev.flow;

import java.io.IOException;

/**
 * Opens {@link Transport}s to one peer. In continuation mode {@link #connect()} is a suspension
 * point: the flow waits for the connection without holding a thread.
 */
public interface Connector {

    /**
     * Connects and returns the new transport, blocking until the connection is established.
     *
     * @throws IOException if the connection fails or times out
     */
    Transport connect() throws IOException;
}
