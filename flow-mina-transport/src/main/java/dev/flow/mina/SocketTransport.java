package dev.flow.mina;

import dev.flow.LineTerminator;
import dev.flow.MemoryHold;
import dev.flow.TlsUpgrade;
import dev.flow.TransportConfig;
import dev.flow.internal.Awaits;
import dev.flow.spi.AsyncTransport;
import dev.flow.spi.Awaitable;
import dev.flow.spi.ByteScanner;
import dev.flow.spi.ReadDeadlines;
import java.io.IOException;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.filter.ssl.SslFilter;

/**
 * The transport behind a {@link FlowSocket}'s streams: its {@link MinaTransport} with the socket's state on
 * top. The read timeout is the socket's {@code soTimeout} (set at any time; a read waiting longer throws the
 * JDK's {@code SocketTimeoutException("Read timed out")}); reads, and the stream's {@code available()}, of a
 * closed socket throw the JDK's {@code SocketException("Socket closed")}, except that once a read has returned
 * end of stream every later read returns it, as the JDK's do; reads after {@code shutdownInput()} return end of
 * stream; writes of a closed socket, or after {@code shutdownOutput()}, throw. With a {@link FlowTlsSocket} layered
 * over the connection, the first read or write starts its handshake and reads wait for it. Everything else is the
 * MINA transport's.
 *
 * <p><b>Threads.</b> Used by one thread or flow at a time, like the socket; {@link #closeConnection()} from any.
 */
final class SocketTransport implements AsyncTransport {

    private final FlowSocket socket;
    private final MinaTransport t;
    /** {@link MinaTransport#config()} with the socket's read timeout. */
    private volatile TransportConfig config;
    /**
     * Whether a read has returned end of stream. Read and written only by the reader, one thread or flow at a time
     * like the stream (a flow resumed elsewhere sees it through the scheduler's hand-off): no volatile read per read.
     */
    private boolean endOfStream;
    /**
     * The TLS socket layered over this connection ({@link FlowTlsSocket}) until its handshake is complete: reads wait
     * for the handshake, which the first read or write starts, as the JDK's {@code SSLSocket} does.
     */
    private volatile FlowTlsSocket handshaking;

    SocketTransport(FlowSocket socket, MinaTransport t) {
        this.socket = socket;
        this.t = t;
        this.config = t.config();
    }

    /** Sets the read timeout, {@code 0} for none. */
    void soTimeout(int millis) {
        config = t.config().toBuilder().readTimeout(Duration.ofMillis(millis)).build();
    }

    /** The JDK socket's own exception for a read past {@code soTimeout}: {@code SocketTimeoutException("Read timed out")}. */
    @Override
    public SocketTimeoutException readTimedOut() {
        return new SocketTimeoutException("Read timed out");
    }

    IoSession session() {
        return t.session();
    }

    /** Whether the connection has a TLS filter already (a connector's, or an upgrade). */
    boolean isTls() {
        return t.session().getFilterChain().contains(SslFilter.class);
    }

    /** Layers {@code tls} over the connection: its handshake starts at the first read or write, reads wait for it. */
    void layer(FlowTlsSocket tls) {
        handshaking = tls;
    }

    /** Starts the TLS upgrade with {@code engine}, configured by the caller ({@link FlowTlsSocket}). */
    Awaitable startTls(TlsUpgrade upgrade, SSLEngine engine) throws IOException {
        return t.startTlsAsync(upgrade, engine);
    }

    @Override
    public SSLSession finishTls(Awaitable handshake) throws IOException {
        return t.finishTls(handshake);
    }

    /**
     * Whether a read must wait for the layered socket's handshake, which this starts if it has not started; throws
     * if it failed.
     */
    private boolean awaitingHandshake() throws IOException {
        FlowTlsSocket tls = handshaking;
        if (tls == null) {
            return false;
        }
        if (tls.handshakeForIo() != null) {
            return true;
        }
        handshaking = null;
        return false;
    }

    /**
     * Before a write: starts the layered socket's handshake if it has not started (the write then waits in the TLS
     * filter until it is complete; a write from a blocking call waits for it here, so that the filter never holds
     * more than a flush's worth); throws if it failed.
     */
    private void handshakeBeforeWrite(boolean blocking) throws IOException {
        FlowTlsSocket tls = handshaking;
        if (tls == null) {
            return;
        }
        if (blocking) {
            tls.startHandshake();
        } else if (tls.handshakeForIo() != null) {
            return;
        }
        handshaking = null;
    }

    /** Drops the input buffered so far (after {@code shutdownInput()}). */
    void discardInput() throws IOException {
        int n = t.available();
        if (n > 0) {
            t.pollSkip(n);
        }
    }

    /**
     * Runs {@code action} once every write accepted so far has been written (at once if none is pending),
     * writes held back in a flow included.
     */
    void afterWrites(Runnable action) throws IOException {
        t.sendHeld().whenDone(action);
    }

    /** Closes the MINA transport; the bytes already written still go out. */
    void closeConnection() {
        t.close();
    }

    @Override
    public TransportConfig config() {
        return config;
    }

    @Override
    public SocketAddress remoteAddress() {
        return t.remoteAddress();
    }

    // ---------------------------------------------------------------- blocking API (plain threads, JDK decorators)

    @Override
    public String readLine() throws IOException {
        TransportConfig c = config;
        return Awaits.readLine(this, c.lineTerminator(), c.maxLineLength(), false);
    }

    @Override
    public String readLine(LineTerminator terminator, int maxLength) throws IOException {
        return Awaits.readLine(this, terminator, maxLength, false);
    }

    @Override
    public int read(byte[] dst, int off, int len) throws IOException {
        return Awaits.read(this, dst, off, len, false);
    }

    @Override
    public void readFully(byte[] dst, int off, int len) throws IOException {
        Awaits.readFully(this, dst, off, len, false);
    }

    @Override
    public byte[] readFully(int n) throws IOException {
        return Awaits.readFully(this, n, false);
    }

    @Override
    public void skip(long n) throws IOException {
        Awaits.skip(this, n, false);
    }

    @Override
    public int available() {
        return socket.isClosed() || socket.isInputShutdown() ? 0 : t.available();
    }

    @Override
    public void endRequest() {
        t.endRequest();
    }

    @Override
    public void writeLine(String line) throws IOException {
        handshakeBeforeWrite(true);
        Awaits.awaitWrite(this, writeLineAsync(line), false);
    }

    @Override
    public void write(byte[] src, int off, int len) throws IOException {
        handshakeBeforeWrite(true);
        Awaits.awaitWrite(this, writeAsync(src, off, len), false);
    }

    @Override
    public void writeText(String text) throws IOException {
        handshakeBeforeWrite(true);
        Awaits.awaitWrite(this, writeTextAsync(text), false);
    }

    @Override
    public void flush() throws IOException {
        handshakeBeforeWrite(true);
        Awaits.awaitWrite(this, flushAsync(), false);
    }

    /** Closes the socket, as closing a JDK socket's stream does. */
    @Override
    public void close() throws IOException {
        socket.close();
    }

    // ---------------------------------------------------------------- non-blocking primitives

    @Override
    public String pollLine(LineTerminator terminator, int maxLength) throws IOException {
        socket.checkReadable();
        if (socket.isInputShutdown()) {
            return null;
        }
        if (awaitingHandshake()) {
            return null;
        }
        try {
            return t.pollLine(terminator, maxLength);
        } catch (IOException e) {
            throw asJdks(e);
        }
    }

    /**
     * End of stream, then {@code -1} from every later read, even of a closed socket (the JDK's socket stream
     * remembers its end of stream so); otherwise as the MINA transport's.
     */
    @Override
    public int pollRead(byte[] dst, int off, int len) throws IOException {
        if (endOfStream) {
            java.util.Objects.checkFromIndexSize(off, len, dst.length);
            return -1;
        }
        socket.checkReadable();
        int n;
        if (socket.isInputShutdown()) {
            java.util.Objects.checkFromIndexSize(off, len, dst.length);
            n = len > 0 ? -1 : 0;
        } else if (awaitingHandshake()) {
            java.util.Objects.checkFromIndexSize(off, len, dst.length);
            n = 0;
        } else {
            try {
                n = t.pollRead(dst, off, len);
            } catch (IOException e) {
                throw asJdks(e);
            }
        }
        if (n < 0) {
            endOfStream = true;
        }
        return n;
    }

    @Override
    public long pollSkip(long n) throws IOException {
        socket.checkReadable();
        if (socket.isInputShutdown()) {
            return n > 0 ? -1 : 0;
        }
        if (awaitingHandshake()) {
            return 0;
        }
        try {
            return t.pollSkip(n);
        } catch (IOException e) {
            throw asJdks(e);
        }
    }

    @Override
    public int pollScan(ByteScanner scanner) throws IOException {
        socket.checkReadable();
        if (socket.isInputShutdown()) {
            return -1;
        }
        if (awaitingHandshake()) {
            return 0;
        }
        try {
            return t.pollScan(scanner);
        } catch (IOException e) {
            throw asJdks(e);
        }
    }

    @Override
    public ReadDeadlines readDeadlines() {
        return t.readDeadlines();
    }

    /** {@link #available()}, or the JDK's {@code SocketException("Socket closed")} once the socket is closed. */
    @Override
    public int streamAvailable() throws IOException {
        socket.checkReadable();
        return available();
    }

    @Override
    public boolean isInputClosed() {
        return socket.isClosed() || socket.isInputShutdown() || t.isInputClosed();
    }

    @Override
    public Awaitable inputReady() {
        if (socket.isClosed() || socket.isInputShutdown()) {
            return Signal.DONE;
        }
        FlowTlsSocket tls = handshaking;
        Awaitable h = tls != null ? tls.pendingHandshake() : null;
        return h != null ? h : t.inputReady();
    }

    @Override
    public void reserveInputMemory(long bytes, long declared) throws IOException {
        t.reserveInputMemory(bytes, declared);
    }

    @Override
    public void releaseInputMemory(long bytes) {
        t.releaseInputMemory(bytes);
    }

    @Override
    public MemoryHold holdReads() {
        return t.holdReads();
    }

    @Override
    public boolean holdingReads() {
        return t.holdingReads();
    }

    @Override
    public boolean keepInputMemory(long bytes) {
        return t.keepInputMemory(bytes);
    }

    @Override
    public Awaitable writeLineAsync(String line) throws IOException {
        socket.checkWritable();
        handshakeBeforeWrite(false);
        try {
            return t.writeLineAsync(line);
        } catch (IOException e) {
            throw asJdks(e);
        }
    }

    @Override
    public Awaitable writeAsync(byte[] src, int off, int len) throws IOException {
        socket.checkWritable();
        handshakeBeforeWrite(false);
        try {
            return t.writeAsync(src, off, len);
        } catch (IOException e) {
            throw asJdks(e);
        }
    }

    @Override
    public Awaitable writeTextAsync(String text) throws IOException {
        socket.checkWritable();
        handshakeBeforeWrite(false);
        try {
            return t.writeTextAsync(text);
        } catch (IOException e) {
            throw asJdks(e);
        }
    }

    /** Nothing to do once the socket is closed: a JDK socket stream's {@code flush()} does nothing and never throws. */
    @Override
    public Awaitable flushAsync() throws IOException {
        if (socket.isClosed()) {
            return Signal.DONE;
        }
        handshakeBeforeWrite(false);
        try {
            return t.flushAsync();
        } catch (IOException e) {
            throw handshakeFailureOr(e);
        }
    }

    @Override
    public void checkWrite(Awaitable write) throws IOException {
        try {
            t.checkWrite(write);
        } catch (IOException e) {
            throw handshakeFailureOr(e);
        }
    }

    /**
     * The layered socket's failed handshake if that is why a write failed (a write waits in the TLS filter for the
     * handshake, and fails with the connection), else {@code e} as the JDK reports it.
     */
    private IOException handshakeFailureOr(IOException e) {
        FlowTlsSocket tls = handshaking;
        if (tls != null) {
            try {
                tls.handshakeForIo();
            } catch (IOException failed) {
                return failed;
            }
        }
        return asJdks(e);
    }

    /**
     * {@code e} as the JDK's socket streams report a failed connection: the system's error (a {@link
     * SocketException} such as "Connection reset", {@code e}'s cause) as a {@code SocketException} of that message
     * with {@code e}, which names the peer, as its cause; any other exception as it is.
     */
    private static IOException asJdks(IOException e) {
        Throwable cause = e.getCause();
        if (e instanceof SocketException || !(cause instanceof SocketException)) {
            return e;
        }
        SocketException s = new SocketException(cause.getMessage());
        s.initCause(e);
        return s;
    }

    @Override
    public long requestNanosLeft() {
        return t.requestNanosLeft();
    }

    @Override
    public SocketTimeoutException requestTimedOut() {
        return t.requestTimedOut();
    }

    @Override
    public IOException writeTimedOut(Duration timeout) {
        return t.writeTimedOut(timeout);
    }

    @Override
    public String toString() {
        return "SocketTransport[" + socket + "]";
    }
}
