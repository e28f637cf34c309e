package dev.flow;

import java.io.Closeable;
import java.io.IOException;
import java.net.SocketAddress;

/**
 * A blocking, line- and byte-oriented connection to a peer.
 *
 * <p>Protocol code is written against this interface in plain blocking style. Loaded normally
 * (sync mode) every call blocks the calling thread; loaded through the {@code
 * ContinuationClassLoader} (continuation mode) every blocking call is a suspension point: the flow
 * is suspended and resumed on a scheduler worker when the operation can complete.
 *
 * <p>A transport is used by one flow (or thread) at a time. Limits and timeouts come from its
 * {@link TransportConfig}.
 */
public interface Transport extends Closeable {

    /**
     * Reads one line, without its terminator ({@code \n} or {@code \r\n}).
     *
     * @return the line, or {@code null} at end of stream
     * @throws LineTooLongException if the line exceeds {@link TransportConfig#maxLineLength()}
     * @throws java.net.SocketTimeoutException if no line arrives within the read timeout
     * @throws IOException if the connection fails
     */
    String readLine() throws IOException;

    /**
     * Reads up to {@code len} bytes, blocking until at least one byte is available.
     *
     * @return the number of bytes read, or {@code -1} at end of stream
     * @throws IOException if the connection fails or the read timeout expires
     */
    int read(byte[] dst, int off, int len) throws IOException;

    /**
     * Writes one line followed by {@code \n}, blocking until the transport has accepted it.
     *
     * @throws IOException if the connection fails or the write timeout expires
     */
    void writeLine(String line) throws IOException;

    /**
     * Writes {@code len} bytes, blocking until the transport has accepted them.
     *
     * @throws IOException if the connection fails or the write timeout expires
     */
    void write(byte[] src, int off, int len) throws IOException;

    /** Blocks until everything written so far has been handed to the network. */
    void flush() throws IOException;

    /** Closes the connection; a second call does nothing. */
    @Override
    void close() throws IOException;

    /** Returns the address of the peer, or {@code null} if it is not known. */
    SocketAddress remoteAddress();

    /** Returns the configuration this transport was created with. */
    TransportConfig config();
}
