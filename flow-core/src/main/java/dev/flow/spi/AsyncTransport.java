package dev.flow.spi;

import dev.flow.LineTerminator;
import dev.flow.TlsUpgrade;
import dev.flow.Transport;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import javax.net.ssl.SSLSession;

/**
 * The non-blocking side of a {@link Transport}, which lets a suspended flow wait for I/O instead of
 * blocking a thread.
 *
 * <p>Implement it in a transport so that its blocking methods become real suspension points in
 * continuation mode. The blocking methods of {@link Transport} must behave like the loops Flow runs
 * over these primitives: poll, and if nothing is there, wait for {@link #inputReady()}.
 */
public interface AsyncTransport extends Transport {

    /**
     * Returns the next complete line if one is buffered, or {@code null}. At end of stream it
     * returns a trailing unterminated line once, then {@code null} with {@link #isInputClosed()}.
     * Uses the configured terminator and limit.
     *
     * @throws dev.flow.LineTooLongException if the buffered line exceeds the limit
     * @throws IOException if the connection failed
     */
    default String pollLine() throws IOException {
        return pollLine(config().lineTerminator(), config().maxLineLength());
    }

    /**
     * Like {@link #pollLine()}, with the given terminator and limit in characters.
     *
     * @throws dev.flow.LineTooLongException if the buffered line exceeds {@code maxLength}
     * @throws IOException if the connection failed
     */
    String pollLine(LineTerminator terminator, int maxLength) throws IOException;

    /**
     * Offers the buffered input to {@code scanner} without waiting and consumes the bytes it accepts;
     * see {@link InputBuffer#scan(ByteScanner, boolean)}, which implements it for a transport built on
     * an {@link InputBuffer}. The byte-level reads ({@code readLineBytes}, {@code readDotBody}) are
     * loops over it. The default throws {@link UnsupportedOperationException}: those reads then fail.
     *
     * @return bytes consumed, 0 if none (nothing buffered, or the scanner needs more), -1 at end of
     *     stream with nothing buffered
     * @throws IOException if the connection failed or the scanner failed the read
     */
    default int pollScan(ByteScanner scanner) throws IOException {
        throw new UnsupportedOperationException(getClass().getName() + " does not implement pollScan");
    }

    /**
     * The read deadlines open on this transport ({@link dev.flow.Transport#deadline(Duration)}), or
     * {@code null} if it supports none (the default). A read that is about to wait bounds its wait by
     * them.
     */
    default ReadDeadlines readDeadlines() {
        return null;
    }

    /**
     * Copies buffered bytes without waiting.
     *
     * @return bytes copied, 0 if none are buffered, -1 at end of stream
     */
    int pollRead(byte[] dst, int off, int len) throws IOException;

    /**
     * Discards up to {@code n} buffered bytes without waiting.
     *
     * @return bytes discarded, 0 if none are buffered, -1 at end of stream
     */
    default long pollSkip(long n) throws IOException {
        byte[] scratch = new byte[(int) Math.min(Math.max(n, 1), 8192)];
        return pollRead(scratch, 0, (int) Math.min(n, scratch.length));
    }

    /**
     * Reserves {@code bytes} more bytes of memory for a read of {@code declared} bytes whose length the
     * peer announced: {@code readFully(int)} grows its array as the bytes arrive and reserves each
     * growth first; it releases the total with {@link #releaseInputMemory(long)} when it ends. A
     * transport that bounds its memory (a server's input budget) charges it there. Default: nothing is
     * charged.
     *
     * @throws IOException if the bound would be exceeded: the read fails with it (the message names the
     *     value and the limit)
     */
    default void reserveInputMemory(long bytes, long declared) throws IOException {
    }

    /** Releases {@code bytes} reserved with {@link #reserveInputMemory(long, long)}. Default: nothing. */
    default void releaseInputMemory(long bytes) {
    }

    /**
     * Whether a {@link dev.flow.Transport#holdReads() hold} is open on a memory bound: then {@code
     * readFully(int)} reserves even the arrays it allocates at once, and hands its reservation to the
     * hold with {@link #keepInputMemory(long)} when it returns. Default: {@code false}.
     */
    default boolean holdingReads() {
        return false;
    }

    /**
     * Hands {@code bytes} reserved with {@link #reserveInputMemory(long, long)} to the innermost open
     * hold, which releases them when it closes; returns {@code false} if no hold took them (the caller
     * then releases them). Default: {@code false}.
     */
    default boolean keepInputMemory(long bytes) {
        return false;
    }

    /** Returns whether the input has ended (the peer closed or the transport failed or closed). */
    boolean isInputClosed();

    /**
     * {@link #available()} as the transport's {@code InputStream} view reports it, which throws where the stream
     * the transport stands for would: a {@code java.net.Socket}'s, once the socket is closed. Never blocks.
     * Default: {@link #available()}.
     *
     * @throws IOException what the stream would throw
     */
    default int streamAvailable() throws IOException {
        return available();
    }

    /**
     * Returns something that completes when more input (or end of stream) may be available. Already
     * complete if input arrived since the last poll.
     */
    Awaitable inputReady();

    /** Queues a line and returns the completion of its write. */
    Awaitable writeLineAsync(String line) throws IOException;

    /** Queues bytes and returns the completion of their write. */
    Awaitable writeAsync(byte[] src, int off, int len) throws IOException;

    /** Queues {@code text} in the configured charset and returns the completion of its write. */
    default Awaitable writeTextAsync(String text) throws IOException {
        byte[] b = text.getBytes(config().charset());
        return writeAsync(b, 0, b.length);
    }

    /** Returns something that completes when everything queued so far has been written. */
    Awaitable flushAsync() throws IOException;

    /**
     * Rethrows the failure of a completed write, if it failed.
     *
     * @throws IOException the write's failure
     */
    void checkWrite(Awaitable write) throws IOException;

    /**
     * Starts an in-band TLS upgrade without waiting: checks that it may start, discards (or rejects) the
     * buffered plain-text input, writes the go-ahead line if any and starts the handshake. Returns
     * something that completes when the handshake ends, either way; {@link #finishTls(Awaitable)} then
     * gives its outcome. {@code Transport.startTls} waits for it within {@link
     * TlsUpgrade#handshakeTimeout()}. Default: refuses like {@link Transport#startTls(TlsUpgrade)}.
     *
     * @throws UnsupportedOperationException if this transport cannot upgrade
     * @throws IllegalStateException if already secured or an upgrade was started
     * @throws IOException if plain-text input is buffered and the upgrade rejects it
     */
    default Awaitable startTlsAsync(TlsUpgrade upgrade) throws IOException {
        throw dev.flow.internal.Awaits.tlsUnsupported(this);
    }

    /**
     * The outcome of the handshake started by {@link #startTlsAsync(TlsUpgrade)}: its session if {@code
     * handshake} completed successfully. If it is not done (the wait timed out or was interrupted) the
     * connection is closed.
     *
     * @throws IOException if the handshake failed, timed out or was interrupted
     */
    default SSLSession finishTls(Awaitable handshake) throws IOException {
        throw dev.flow.internal.Awaits.tlsUnsupported(this);
    }

    /**
     * How long, in nanoseconds, the request being read may still wait for input ({@link
     * dev.flow.TransportConfig#requestTimeout()}): {@code <= 0} if its deadline has passed, {@link
     * Long#MAX_VALUE} if no deadline applies now (no request running, or no request timeout). Called
     * by a read that is about to wait; the default: {@link Long#MAX_VALUE}.
     */
    default long requestNanosLeft() {
        return Long.MAX_VALUE;
    }

    /**
     * The exception for a read that waited longer than the configuration's {@code readTimeout}, naming the
     * peer and the timeout. The transport stays usable.
     */
    default SocketTimeoutException readTimedOut() {
        return new SocketTimeoutException("read from " + remoteAddress() + " timed out after "
                + config().readTimeout().toMillis() + " ms (readTimeout)");
    }

    /**
     * The exception for a read that waited past the request's deadline, naming {@code requestTimeout},
     * its value, the bytes received and {@code minRequestRate}. The transport stays usable.
     */
    default SocketTimeoutException requestTimedOut() {
        return new SocketTimeoutException("request from " + remoteAddress() + " not complete after "
                + config().requestTimeout().toMillis() + " ms (requestTimeout " + config().requestTimeout().toMillis()
                + " ms, minRequestRate " + config().minRequestRate() + " bytes/s)");
    }

    /**
     * Called when a write or flush waited longer than {@code timeout}: ends the connection at once
     * (the queued bytes can no longer be trusted to go out) and returns the exception to throw.
     */
    default IOException writeTimedOut(Duration timeout) {
        try {
            close();
        } catch (IOException e) {
            // The timeout is what the caller must see; a failing close adds nothing.
        }
        return new SocketTimeoutException("write to " + remoteAddress() + " timed out after "
                + timeout.toMillis() + " ms (writeTimeout)");
    }
}
