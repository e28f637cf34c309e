package dev.flow;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.Objects;
import javax.net.ssl.SSLSession;

/**
 * A blocking, line- and byte-oriented connection to a peer.
 *
 * <p>Protocol code is written against this interface in plain blocking style. Loaded normally
 * (sync mode) every call blocks the calling thread; loaded through the {@code
 * ContinuationClassLoader} (continuation mode) every blocking method is a suspension point: the
 * flow is suspended and resumed on a scheduler worker when the operation can complete. {@link
 * #available()}, {@link #remoteAddress()} and {@link #config()} never block.
 *
 * <p><b>Input</b> is one buffer shared by every read: bytes buffered after a line are never lost,
 * so {@code readLine()} followed by {@code readFully(n)} reads the {@code n} bytes that follow the
 * line's terminator (an HTTP header block then its body, a RESP length line then its bulk string).
 *
 * <p><b>Output.</b> A write may go out at once (MINA: write-behind, like a socket's send buffer) or
 * be buffered (a socket transport); {@link #flush()} has one meaning for every transport: it
 * returns once everything written so far has been handed to the network, and costs nothing when
 * nothing is pending. Portable code flushes once per response, or, to batch replies to pipelined
 * requests, only when {@link #available()} is {@code 0}.
 *
 * <p>A transport is used by one flow (or thread) at a time. Limits and timeouts come from its
 * {@link TransportConfig}. The default methods work by calling the abstract ones; a user
 * implementation that inherits them is correct and blocks in continuation mode too.
 */
public interface Transport extends Closeable {

    /**
     * Reads one line, ended as {@link TransportConfig#lineTerminator()} says, of at most {@link
     * TransportConfig#maxLineLength()} characters.
     *
     * @return the line without its terminator, or {@code null} at end of stream
     * @throws LineTooLongException if the line exceeds the limit
     * @throws java.net.SocketTimeoutException if the read or line timeout expires
     * @throws IOException if the connection fails
     */
    String readLine() throws IOException;

    /**
     * Reads one line ended by {@code terminator} and of at most {@code maxLength} characters. At end
     * of stream an unterminated last line is returned (for {@link LineTerminator#LF_OR_CRLF} without
     * a trailing {@code \r}), then {@code null}. A line that exceeds the limit makes every later
     * read fail: the rest of the line cannot be told from the next request.
     *
     * @throws IllegalArgumentException if {@code maxLength <= 0}
     * @throws LineTooLongException if the line exceeds {@code maxLength}
     * @throws java.net.SocketTimeoutException if the read or line timeout expires
     * @throws java.nio.charset.MalformedInputException with {@link TransportConfig#strictDecoding()},
     *         if the line is not valid in the charset
     * @throws IOException if the connection fails
     */
    String readLine(LineTerminator terminator, int maxLength) throws IOException;

    /**
     * Reads one line as bytes, ended as {@link TransportConfig#lineTerminator()} says, of at most
     * {@link TransportConfig#maxLineLength()} bytes; see {@link #readLineBytes(LineTerminator, int)}.
     */
    default Line readLineBytes() throws IOException {
        return readLineBytes(config().lineTerminator(), config().maxLineLength());
    }

    /**
     * Reads one line as bytes, exactly as received (no decoding), ended by {@code terminator}, of at
     * most {@code maxBytes} bytes without the terminator, and reports what ended it ({@link
     * Line#ending()}). With {@link LineTerminator#LF_OR_CRLF} a protocol that requires {@code "\r\n"}
     * sees a bare {@code "\n"} as {@link LineEnding#LF} at once and can reject the line; with {@link
     * LineTerminator#CRLF} a bare {@code "\n"} stays in the line. At end of stream an unterminated last
     * line is returned ({@link LineEnding#END_OF_STREAM}), then {@code null}. A line over the limit
     * makes every later read fail, as for {@link #readLine(LineTerminator, int)}. Honours the read and
     * line timeouts and the {@link #deadline(Duration)}.
     *
     * @return the line, or {@code null} at end of stream
     * @throws IllegalArgumentException if {@code maxBytes <= 0}
     * @throws LineTooLongException if the line exceeds {@code maxBytes}
     * @throws java.net.SocketTimeoutException if a timeout or the deadline expires
     * @throws IOException if the connection fails
     */
    default Line readLineBytes(LineTerminator terminator, int maxBytes) throws IOException {
        return dev.flow.internal.Scans.readLineBytes(this, terminator, maxBytes);
    }

    /**
     * Reads a dot-terminated body (RFC 5321 section 4.5.2; also POP3 and NNTP) and writes it to {@code
     * sink} byte for byte: the lines up to the one holding only {@code "."}, each with its {@code
     * "\r\n"}, the leading {@code "."} of a line that starts with one removed ("dot-unstuffing"). Only
     * {@code "\r\n.\r\n"} ends the body (the first {@code "\r\n"} may be the one that ended the
     * command before it); a bare {@code "\r"} or {@code "\n"} is data. Reads nothing past the final
     * {@code "\r\n"}.
     *
     * <p>A body longer than {@code maxBytes} is read to its end all the same, the part past the limit
     * discarded ({@code sink} receives the first {@code maxBytes} bytes), then {@link
     * BodyTooLargeException} is thrown: the transport is positioned after the body, so the protocol
     * can answer and go on. Honours the read timeout and the {@link #deadline(Duration)} (bound a body
     * from a peer that never ends it with a deadline).
     *
     * @return the number of bytes written to {@code sink}
     * @throws IllegalArgumentException if {@code maxBytes < 0}
     * @throws BodyTooLargeException if the body exceeds {@code maxBytes}
     * @throws java.io.EOFException if the stream ends before the body does, naming the bytes read
     * @throws java.net.SocketTimeoutException if a timeout or the deadline expires
     * @throws IOException if the connection fails or {@code sink} throws
     */
    default long readDotBody(OutputStream sink, long maxBytes) throws IOException {
        return dev.flow.internal.Scans.readDotBody(this, sink, maxBytes);
    }

    /**
     * Reads up to {@code len} bytes, blocking until at least one byte is available.
     *
     * @return the number of bytes read, or {@code -1} at end of stream
     * @throws IOException if the connection fails or the read timeout expires
     */
    int read(byte[] dst, int off, int len) throws IOException;

    /**
     * Reads exactly {@code len} bytes.
     *
     * @throws java.io.EOFException if the stream ends first, naming how many bytes were still expected
     * @throws IOException if the connection fails or the read timeout expires
     */
    default void readFully(byte[] dst, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, dst.length);
        int got = 0;
        while (got < len) {
            int n = read(dst, off + got, len - got);
            if (n < 0) {
                throw dev.flow.internal.Awaits.endOfStream(this, len - got, len);
            }
            got += n;
        }
    }

    /**
     * Reads exactly {@code n} bytes into a new array; see {@link #readFully(byte[], int, int)}. The array
     * is not allocated on the peer's word: up to 8 KiB it is allocated at once, beyond that only as the
     * bytes arrive (doubling), so a peer that announces a length and sends nothing commits nothing.
     *
     * @throws IllegalArgumentException if {@code n < 0}
     * @throws java.io.EOFException if the stream ends first, naming how many bytes were still expected
     * @throws IOException if the connection fails, the read timeout expires or (a transport with a
     *     memory bound, such as a server's {@code InputBudget}) the bound would be exceeded
     */
    default byte[] readFully(int n) throws IOException {
        return dev.flow.internal.Awaits.readFullyGrowing(this, n);
    }

    /**
     * Opens a hold on the memory of this transport's reads: until the returned hold is closed, each
     * array that {@link #readFully(int)} returns stays counted against the transport's memory bound (a
     * server's {@code InputBudget}), instead of only while it fills, so that what handlers keep of
     * their requests is bounded across sessions, not only per session. A read that would take the
     * total past the bound fails with an {@link IOException} naming the total and the limit, and only
     * that read's session is concerned. Use it around a request: {@code try (MemoryHold h =
     * transport.holdReads()) { ... read the request, answer it ... }}. Holds nest (close them in the
     * reverse order); a closed transport releases what its holds counted. Never blocks and is not a
     * suspension point. The default, for transports without a memory bound, counts nothing.
     */
    default MemoryHold holdReads() {
        return dev.flow.internal.Holds.NONE;
    }

    /**
     * Discards exactly {@code n} bytes of input.
     *
     * @throws java.io.EOFException if the stream ends first
     * @throws IOException if the connection fails or the read timeout expires
     */
    default void skip(long n) throws IOException {
        if (n < 0) {
            throw new IllegalArgumentException("n: " + n + " (expected: >= 0)");
        }
        byte[] scratch = new byte[(int) Math.min(n, 8192)];
        long left = n;
        while (left > 0) {
            int r = read(scratch, 0, (int) Math.min(left, scratch.length));
            if (r < 0) {
                throw dev.flow.internal.Awaits.endOfStream(this, left, n);
            }
            left -= r;
        }
    }

    /**
     * The number of input bytes buffered and readable without waiting; {@code 0} if none (or if the
     * transport cannot tell). Never blocks and is not a suspension point.
     */
    default int available() {
        return 0;
    }

    /**
     * Marks the end of a request: the handler has read it completely. The request's deadline ({@link
     * TransportConfig#requestTimeout()}) stops; the next request starts at its first byte. A write
     * ends the request too, so a handler that answers every request needs no call; one that reads
     * several requests before it answers (pipelining) calls it after each. When a server stops
     * gracefully, a session waiting between requests ends at once and one inside a request may finish
     * it. Never blocks and is not a suspension point; the default does nothing.
     */
    default void endRequest() {
    }

    /**
     * Bounds the reads of this transport by a deadline {@code timeout} from now, until the returned
     * {@link Deadline} is closed: a read that would have to wait past it fails with {@link
     * DeadlineExceededException} (a {@link java.net.SocketTimeoutException}); the transport stays
     * usable. Use it for protocol timeouts that vary per state (an SMTP command, a {@code DATA} body):
     * {@code try (Deadline d = transport.deadline(Duration.ofMinutes(5))) { ... }}. The configured
     * timeouts ({@link TransportConfig#readTimeout()}, {@code lineTimeout}, {@code requestTimeout})
     * still apply; whichever expires first ends the read. Deadlines nest: the earliest open one
     * applies; closing one restores the one set before. Like the request timeout, a deadline is
     * checked when a read has to wait: a read that finds its bytes buffered never fails by it. Never
     * blocks and is not a suspension point.
     *
     * @throws IllegalArgumentException if {@code timeout} is negative
     * @throws UnsupportedOperationException if the transport cannot bound its reads (the default, for
     *     transports that do not override it)
     */
    default Deadline deadline(Duration timeout) {
        throw new UnsupportedOperationException(getClass().getName() + " does not support read deadlines");
    }

    /**
     * Records how this session ended, for the statistics of the server that runs it ({@code
     * SessionStats}): a handler that handles a timeout or a peer's protocol error itself and returns
     * normally records {@link SessionOutcome#TIMED_OUT} or {@link SessionOutcome#PROTOCOL_ERROR} so that
     * the session is not counted as completed. The last call wins; it applies only if the handler
     * returns normally (an exception is classified as before). Never blocks; the default does nothing.
     */
    default void recordOutcome(SessionOutcome outcome) {
    }

    /**
     * Writes {@code line} followed by {@link TransportConfig#lineSeparator()}, in the configured
     * charset.
     *
     * @throws IOException if the connection fails or the write timeout expires
     */
    void writeLine(String line) throws IOException;

    /**
     * Writes {@code len} bytes.
     *
     * @throws IOException if the connection fails or the write timeout expires
     */
    void write(byte[] src, int off, int len) throws IOException;

    /** Writes all of {@code src}; see {@link #write(byte[], int, int)}. */
    default void write(byte[] src) throws IOException {
        write(src, 0, src.length);
    }

    /** Writes {@code text} in the configured charset, without a terminator. */
    default void writeText(String text) throws IOException {
        byte[] b = text.getBytes(config().charset());
        write(b, 0, b.length);
    }

    /**
     * Returns once everything written so far has been handed to the network. Costs nothing when
     * nothing is pending.
     *
     * @throws IOException if a write failed or the write timeout expires
     */
    void flush() throws IOException;

    /**
     * Reply batching: flushes, as {@link #flush()}, only when no input is buffered ({@link #available()}
     * is {@code 0}). A handler that answers pipelined requests calls it after each reply: while further
     * requests are already buffered their replies go out together, with one flush (on MINA a flush that
     * waits is a suspension). Safe on every Flow transport: their
     * unflushed writes go out before the handler waits for anything (MINA, in a flow), at once (MINA, on
     * a plain thread) or before a read waits for input (the socket transport), so a reply is never held
     * back while the handler waits for the peer.
     *
     * @return whether it flushed
     * @throws IOException if a write failed or the write timeout expires
     */
    default boolean flushIfNoInput() throws IOException {
        if (available() != 0) {
            return false;
        }
        flush();
        return true;
    }

    /**
     * An {@link InputStream} reading this transport's input (the same buffer as every other read).
     * Its reads are suspension points when called directly from code loaded through the {@code
     * ContinuationClassLoader}; behind a JDK decorator ({@code DataInputStream}, {@code
     * BufferedReader}) they block the flow's worker (a pinned wait, reported once per site).
     * Closing the stream closes the transport.
     */
    default InputStream inputStream() {
        return new dev.flow.internal.TransportInputStream(this);
    }

    /**
     * An {@link OutputStream} writing to this transport; {@code flush()} is {@link #flush()} and
     * {@code close()} closes the transport. Suspends and pins like {@link #inputStream()}.
     */
    default OutputStream outputStream() {
        return new dev.flow.internal.TransportOutputStream(this);
    }

    /**
     * Upgrades the connection to TLS in band (STARTTLS) and returns once the handshake is complete; a
     * suspension point in continuation mode. Plain-text input that arrived after the upgrade command (a
     * pipelined command, the CVE-2011-0411 class of injection) is discarded, or refused with {@link
     * TlsUpgrade.PlainInput#REJECT}; input that arrives in plain text while the handshake runs is never
     * read. With {@link TlsUpgrade#goAhead()} the go-ahead line is written in plain text once this side
     * is ready for the peer's handshake. From then on every read and write goes through TLS.
     *
     * @return the TLS session: peer certificates, protocol, cipher suite
     * @throws UnsupportedOperationException if this transport cannot upgrade (the default: only MINA TCP
     *     sessions can), naming the transport
     * @throws IllegalStateException if the connection is already secured or an upgrade was started
     * @throws IOException with {@link TlsUpgrade.PlainInput#REJECT}, if plain-text input is buffered (the
     *     transport stays plain); if the handshake fails or exceeds {@link TlsUpgrade#handshakeTimeout()}
     *     (the connection is then closed)
     */
    default SSLSession startTls(TlsUpgrade upgrade) throws IOException {
        throw dev.flow.internal.Awaits.tlsUnsupported(this);
    }

    /**
     * The TLS session once the connection is secured (from its first byte, or by {@link
     * #startTls(TlsUpgrade)}), else {@code null}. Never blocks and is not a suspension point; the default
     * returns {@code null}.
     */
    default SSLSession tlsSession() {
        return null;
    }

    /** Closes the connection; a second call does nothing. */
    @Override
    void close() throws IOException;

    /** Returns the address of the peer, or {@code null} if it is not known. */
    SocketAddress remoteAddress();

    /** Returns the configuration this transport was created with. */
    TransportConfig config();

    /**
     * A blocking transport over a connected {@code socket}, with the same input semantics as every Flow
     * transport (one buffer shared by every read, terminators, limits, timeouts and deadlines) and
     * buffered writes: {@link #flush()} hands them to the socket, and buffered output is also flushed
     * before a read has to wait for the socket. For sync mode on platform or virtual threads, and for
     * tests; it is not an asynchronous transport: in a flow its waits block the worker. The idle timeout
     * closes the connection when a read waits that long with nothing buffered; the request timeout
     * bounds a read inside a request as on every Flow transport; a write to the socket still blocked
     * when the write timeout expires (the peer does not read) fails with a {@link
     * java.net.SocketTimeoutException} naming it, and the connection is closed (a timer closes the
     * socket under the blocked write).
     * Closing the transport closes the socket. Used by one thread at a time.
     *
     * @throws IOException if the socket is closed or not connected
     */
    static Transport ofSocket(java.net.Socket socket, TransportConfig config) throws IOException {
        return new SocketTransport(socket, config);
    }
}
