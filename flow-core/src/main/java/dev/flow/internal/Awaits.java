package dev.flow.internal;

import dev.flow.BodyTooLargeException;
import dev.flow.Connector;
import dev.flow.Line;
import dev.flow.LineTerminator;
import dev.flow.TlsUpgrade;
import dev.flow.Transport;
import dev.flow.TransportConfig;
import dev.flow.spi.AsyncConnector;
import dev.flow.spi.AsyncSocket;
import dev.flow.spi.AsyncSocketFactory;
import dev.flow.spi.AsyncTlsSocket;
import dev.flow.spi.Awaitable;
import dev.flow.spi.AsyncTransport;
import dev.flow.spi.ReadDeadlines;
import dev.flow.jdk.FlowData;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.SocketFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import org.apache.commons.javaflow.api.Continuation;

/**
 * The suspendable forms of every blocking call: the {@code ContinuationClassLoader} rewrites
 * suspension-point call sites into calls to these methods.
 *
 * <p>Each class loader defines its own instrumented copy of this class, so it uses only public
 * members of other classes. Outside a flow, or when the flow must not suspend, every method blocks
 * like the call it replaces. Runs on the calling thread: a scheduler worker inside a flow.
 */
public final class Awaits {

    /**
     * {@code readFully(n)} allocates its array at once up to this many bytes (8 KiB); a longer read
     * allocates only once bytes arrive, at least this much or what is buffered, doubling as more
     * arrive: a peer that announces a length and sends nothing commits nothing.
     */
    public static final int EXACT_READ = 8192;

    private Awaits() {
    }

    /**
     * Waits for {@code w} without regard to interrupts (like {@code CompletableFuture.join()}): suspends
     * inside a flow, blocks elsewhere. The interrupt status is kept.
     *
     * @param timeoutNanos how long to wait, {@code 0} for ever
     * @return {@code true} if {@code w} completed, {@code false} on timeout
     * @throws java.util.concurrent.CancellationException if the flow is cancelled or its scheduler closes
     */
    public static boolean park(Object w, long timeoutNanos) {
        if (Waits.isDone(w)) {
            return true;
        }
        int r = suspend(w, timeoutNanos, FlowState.UNINTERRUPTIBLE);
        return r < 0 ? Waits.blockUninterruptibly(w, timeoutNanos) : r == 1;
    }

    /**
     * Waits for {@code w} like an interruptible blocking call: with the interrupt status set (before or
     * while waiting), throws {@link InterruptedException} and clears it; suspends inside a flow, blocks
     * elsewhere.
     *
     * @param timeoutNanos how long to wait, {@code 0} for ever
     * @return {@code true} if {@code w} completed, {@code false} on timeout
     * @throws InterruptedException if interrupted, or if the flow is cancelled
     */
    public static boolean parkInterruptibly(Object w, long timeoutNanos) throws InterruptedException {
        if (Waits.isDone(w)) {
            return true;
        }
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        int r = suspend(w, timeoutNanos, FlowState.INTERRUPTIBLE);
        return r < 0 ? Waits.blockInterruptibly(w, timeoutNanos) : r == 1;
    }

    /**
     * Suspends the current flow on {@code w} in {@code mode} ({@code FlowState.UNINTERRUPTIBLE},
     * {@code INTERRUPTIBLE} or {@code IO}).
     *
     * @return {@code 1} if resumed after {@code w} completed, {@code 0} on timeout, {@code -1} if the
     *     caller must block instead (no flow, pinned, or the policy says so)
     */
    private static int suspend(Object w, long timeoutNanos, int mode) {
        FlowState f = FlowState.prepare(w, timeoutNanos, mode);
        if (f == null) {
            return -1;
        }
        Continuation.suspend();
        return f.afterResume() ? 1 : 0;
    }

    /**
     * Waits for the receiver of a parameterless uninterruptible blocking method (e.g. {@code
     * CompletableFuture.join()}); the interrupt status is kept. It suspends in its own frame, not
     * through {@link #suspend}: the most common wait parks one frame (and its locals) less.
     */
    public static void ready(Object w) {
        if (!Waits.isDone(w)) {
            // When the flow cannot suspend, the original call that follows blocks, with its own
            // interrupt semantics.
            FlowState f = FlowState.prepare(w, 0, FlowState.UNINTERRUPTIBLE);
            if (f != null) {
                Continuation.suspend();
                f.afterResume();
            }
        }
    }

    /**
     * Waits for the receiver of a parameterless interruptible blocking method (e.g. MINA's {@code
     * IoFuture.await()}): with the interrupt status set it returns at once, so that the original call
     * throws as on a plain thread.
     */
    public static void readyInterruptibly(Object w) {
        if (!Waits.isDone(w) && !Thread.currentThread().isInterrupted()) {
            suspend(w, 0, FlowState.INTERRUPTIBLE);
        }
    }

    /**
     * Replaces interruptible {@code await(long millis)}-style calls: waits up to {@code millis}; a
     * timeout of 0 or less only reports whether {@code w} is done.
     *
     * @throws InterruptedException if the interrupt status is set, or the flow is cancelled
     */
    public static boolean readyMillisInterruptibly(Object w, long millis) throws InterruptedException {
        return readyTimeoutInterruptibly(w, millis, TimeUnit.MILLISECONDS);
    }

    /** Replaces interruptible {@code await(long, TimeUnit)}-style calls; see {@link #readyMillisInterruptibly}. */
    public static boolean readyTimeoutInterruptibly(Object w, long timeout, TimeUnit unit) throws InterruptedException {
        if (unit.toNanos(timeout) <= 0) {
            return Waits.isDone(w);
        }
        return parkInterruptibly(w, timeoutNanos(timeout, unit));
    }

    /** Replaces {@code IoFuture.await(long)}-style calls: waits up to {@code millis}. */
    public static boolean readyMillis(Object w, long millis) {
        return park(w, timeoutNanos(millis, TimeUnit.MILLISECONDS));
    }

    /** Replaces {@code await(long, TimeUnit)}-style calls. */
    public static boolean readyTimeout(Object w, long timeout, TimeUnit unit) {
        return park(w, timeoutNanos(timeout, unit));
    }

    /**
     * Replaces {@code Future.get()}: suspends until the future is done, unless the interrupt status is
     * set, in which case the future's own {@code get()} throws as on a plain thread.
     */
    public static Object get(Future<?> f) throws InterruptedException, ExecutionException {
        if (!f.isDone() && !Thread.currentThread().isInterrupted()) {
            suspend(f, 0, FlowState.INTERRUPTIBLE);
        }
        return f.get();
    }

    /**
     * Replaces {@code Future.get(long, TimeUnit)}. The outcome, a {@code TimeoutException} included,
     * comes from the future's own {@code get}, so its type and message are the JDK's.
     */
    public static Object futureGet(Future<?> f, long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        int mode = Polling.mode(FlowState.current());
        if (unit == null || f.isDone() || Thread.currentThread().isInterrupted() || !Polling.maySuspend(mode)) {
            return f.get(timeout, unit);
        }
        if (unit.toNanos(timeout) > 0 && suspend(f, timeoutNanos(timeout, unit), FlowState.INTERRUPTIBLE) < 0) {
            return f.get(timeout, unit);
        }
        return f.get(0, TimeUnit.NANOSECONDS);
    }

    /** Replaces {@code Flow.await(CompletionStage)}. */
    public static Object await(CompletionStage<?> stage) {
        CompletableFuture<?> f = stage.toCompletableFuture();
        park(f, 0);
        return f.join();
    }

    /** Replaces {@code Flow.await(Future)}. */
    public static Object await(Future<?> future) {
        park(future, 0);
        return Waits.getDone(future);
    }

    /** Replaces {@code Flow.await(Awaitable)}. */
    public static void await(Awaitable awaitable) {
        park(awaitable, 0);
    }

    /** Replaces {@code Thread.sleep(long)}. */
    public static void sleep(long millis) throws InterruptedException {
        FlowState f = FlowState.current();
        if (f == null) {
            Thread.sleep(millis);
            return;
        }
        if (millis < 0) {
            throw new IllegalArgumentException("timeout value is negative");
        }
        sleepNanos(f, TimeUnit.MILLISECONDS.toNanos(millis));
    }

    /** Replaces {@code Thread.sleep(long, int)}. */
    public static void sleep(long millis, int nanos) throws InterruptedException {
        FlowState f = FlowState.current();
        if (f == null) {
            Thread.sleep(millis, nanos);
            return;
        }
        if (millis < 0) {
            throw new IllegalArgumentException("timeout value is negative");
        }
        if (nanos < 0 || nanos > 999_999) {
            throw new IllegalArgumentException("nanosecond timeout value out of range");
        }
        sleepNanos(f, TimeUnit.MILLISECONDS.toNanos(millis) + nanos);
    }

    /** Replaces {@code Thread.sleep(Duration)} and {@code Flow.sleep(Duration)}. */
    public static void sleep(Duration duration) throws InterruptedException {
        if (duration.isNegative()) {
            return;
        }
        long nanos = saturatedNanos(duration);
        FlowState f = FlowState.current();
        if (f == null) {
            Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
            return;
        }
        sleepNanos(f, nanos);
    }

    private static void sleepNanos(FlowState f, long nanos) throws InterruptedException {
        if (Thread.currentThread().isInterrupted()) {
            // Throws the JDK's own "sleep interrupted" and clears the status, as on a plain thread.
            Thread.sleep(0);
        }
        if (nanos <= 0) {
            return;
        }
        // Suspends in this frame, not through suspend(): a sleeping flow parks one frame less.
        if (FlowState.prepare(f.sleep(nanos), 0, FlowState.INTERRUPTIBLE) == null) {
            try {
                TimeUnit.NANOSECONDS.sleep(nanos);
            } finally {
                FlowEvents.pinnedWaitEnds();
            }
            return;
        }
        Continuation.suspend();
        f.afterResume();
    }

    /**
     * Replaces {@code Connector.connect()}. Where the flow cannot suspend (a constructor, a held monitor)
     * the wait blocks, reported as a pinned wait; an interrupt then abandons the attempt.
     */
    public static Transport connect(Connector c) throws IOException {
        if (!(c instanceof AsyncConnector)) {
            return c.connect();
        }
        AsyncConnector a = (AsyncConnector) c;
        Object attempt = a.connectAsync();
        if (!awaitAttempt(attempt, 0, true)) {
            a.abandon(attempt);
            throw new InterruptedIOException("interrupted while connecting through " + c);
        }
        return a.transportOf(attempt);
    }

    /** Replaces {@code Socket.connect(SocketAddress)}. */
    public static void socketConnect(Socket s, SocketAddress endpoint) throws IOException {
        if (!(s instanceof AsyncSocket)) {
            s.connect(endpoint);
            return;
        }
        connect((AsyncSocket) s, endpoint, 0, true);
    }

    /** Replaces {@code Socket.connect(SocketAddress, int)}. */
    public static void socketConnectTimed(Socket s, SocketAddress endpoint, int timeoutMillis) throws IOException {
        if (!(s instanceof AsyncSocket)) {
            s.connect(endpoint, timeoutMillis);
            return;
        }
        connect((AsyncSocket) s, endpoint, timeoutMillis, true);
    }

    /**
     * The socket replacements' forms that know their call site ({@code site}, a {@code
     * Pins.Reason.BLOCKING_CALL} site): a plain JDK socket connects inside the JDK, so in a flow its connect is
     * reported at the site (a warning once per site; refused in strict mode) and blocks; Flow's own sockets
     * ({@link AsyncSocket}) suspend.
     */
    public static void socketConnect(Socket s, SocketAddress endpoint, int site) throws IOException {
        if (!(s instanceof AsyncSocket) && s != null) {
            Polling.unsuspendable(site);
        }
        socketConnect(s, endpoint);
    }

    /** {@link #socketConnect(Socket, SocketAddress, int)} for {@code connect(SocketAddress, int)}. */
    public static void socketConnectTimed(Socket s, SocketAddress endpoint, int timeoutMillis, int site) throws IOException {
        if (!(s instanceof AsyncSocket) && s != null) {
            Polling.unsuspendable(site);
        }
        socketConnectTimed(s, endpoint, timeoutMillis);
    }

    /**
     * Connects {@code s} to {@code endpoint} within {@code timeoutMillis} ({@code 0}: none): starts the
     * attempt, waits for it, finishes it (which throws on failure, timeout or interrupt).
     *
     * @param suspend whether the wait may suspend the flow ({@code false}: it blocks the thread, reported
     *     as a pinned wait inside a flow: an {@link AsyncSocket}'s own {@code connect})
     */
    public static void connect(AsyncSocket s, SocketAddress endpoint, int timeoutMillis, boolean suspend)
            throws IOException {
        Object attempt = s.connectAsync(endpoint, timeoutMillis);
        try {
            awaitAttempt(attempt, TimeUnit.MILLISECONDS.toNanos(timeoutMillis), suspend);
        } catch (Throwable e) {
            // A cancelled flow leaves the wait with an exception: the attempt is released, the exception kept.
            try {
                s.finishConnect(attempt);
            } catch (IOException | RuntimeException ignored) {
                // the wait's own exception is what the caller must see
            }
            throw e;
        }
        s.finishConnect(attempt);
    }

    /** Replaces {@code SocketFactory.createSocket(String, int)}. */
    public static Socket createSocket(SocketFactory f, String host, int port) throws IOException {
        if (!(f instanceof AsyncSocketFactory)) {
            return f.createSocket(host, port);
        }
        return connected((AsyncSocketFactory) f, socketAddress(host, port), null);
    }

    /** Replaces {@code SocketFactory.createSocket(InetAddress, int)}; a null address throws as the JDK's factory does. */
    public static Socket createSocket(SocketFactory f, InetAddress host, int port) throws IOException {
        if (!(f instanceof AsyncSocketFactory)) {
            return f.createSocket(host, port);
        }
        return connected((AsyncSocketFactory) f, new InetSocketAddress(java.util.Objects.requireNonNull(host), port), null);
    }

    /** Replaces {@code SocketFactory.createSocket(String, int, InetAddress, int)}. */
    public static Socket createSocket(SocketFactory f, String host, int port, InetAddress localHost, int localPort)
            throws IOException {
        if (!(f instanceof AsyncSocketFactory)) {
            return f.createSocket(host, port, localHost, localPort);
        }
        return connected((AsyncSocketFactory) f, socketAddress(host, port), new InetSocketAddress(localHost, localPort));
    }

    /** Replaces {@code SocketFactory.createSocket(InetAddress, int, InetAddress, int)}. */
    public static Socket createSocket(SocketFactory f, InetAddress host, int port, InetAddress localHost, int localPort)
            throws IOException {
        if (!(f instanceof AsyncSocketFactory)) {
            return f.createSocket(host, port, localHost, localPort);
        }
        return connected((AsyncSocketFactory) f, new InetSocketAddress(java.util.Objects.requireNonNull(host), port),
                new InetSocketAddress(localHost, localPort));
    }

    /**
     * The connecting {@code createSocket} forms that know their call site ({@code site}, a {@code
     * Pins.Reason.BLOCKING_CALL} site): a factory of the JDK's ({@code SocketFactory.getDefault()}, an {@code
     * SSLSocketFactory}) connects a plain JDK socket inside the JDK, so in a flow the call is reported at the site
     * and blocks; Flow's factories ({@link AsyncSocketFactory}) suspend; any other factory's code is classified
     * at its own call sites.
     */
    public static Socket createSocket(SocketFactory f, String host, int port, int site) throws IOException {
        jdkFactory(f, site);
        return createSocket(f, host, port);
    }

    /** {@link #createSocket(SocketFactory, String, int, int)} for {@code createSocket(InetAddress, int)}. */
    public static Socket createSocket(SocketFactory f, InetAddress host, int port, int site) throws IOException {
        jdkFactory(f, site);
        return createSocket(f, host, port);
    }

    /** {@link #createSocket(SocketFactory, String, int, int)} for {@code createSocket(String, int, InetAddress, int)}. */
    public static Socket createSocket(SocketFactory f, String host, int port, InetAddress localHost, int localPort, int site)
            throws IOException {
        jdkFactory(f, site);
        return createSocket(f, host, port, localHost, localPort);
    }

    /** {@link #createSocket(SocketFactory, String, int, int)} for {@code createSocket(InetAddress, int, InetAddress, int)}. */
    public static Socket createSocket(SocketFactory f, InetAddress host, int port, InetAddress localHost, int localPort,
            int site) throws IOException {
        jdkFactory(f, site);
        return createSocket(f, host, port, localHost, localPort);
    }

    /** Reports {@code site} when {@code f} is one of the JDK's socket factories (defined by the boot or platform loader). */
    private static void jdkFactory(SocketFactory f, int site) {
        if (f != null && !(f instanceof AsyncSocketFactory)) {
            ClassLoader l = f.getClass().getClassLoader();
            if (l == null || l == ClassLoader.getPlatformClassLoader()) {
                Polling.unsuspendable(site);
            }
        }
    }

    /**
     * Replaces {@code new Socket()} in loaded code when a provider of Flow's sockets lists the socket constructors
     * as {@code CONSTRUCTOR} points ({@code flow-mina-transport} does): an unconnected socket of the {@linkplain
     * DefaultSocketFactory#get() default socket factory}, whose {@code connect} suspends; the JDK's socket if there is
     * none.
     */
    public static Socket newSocket() throws IOException {
        AsyncSocketFactory f = DefaultSocketFactory.get();
        return f != null ? f.createSocket() : new Socket();
    }

    /**
     * Replaces {@code SocketFactory.getDefault()} in loaded code (a static substitute, with the socket constructors,
     * see {@link #newSocket()}): the {@linkplain DefaultSocketFactory#get() default socket factory} if it is a {@code
     * SocketFactory}, whose sockets and connecting {@code createSocket} forms suspend; else the JDK's. Never waits.
     */
    public static SocketFactory defaultSocketFactory() {
        AsyncSocketFactory f = DefaultSocketFactory.get();
        return f instanceof SocketFactory ? (SocketFactory) f : SocketFactory.getDefault();
    }

    /**
     * Replaces {@code SSLContext.getSocketFactory()} in loaded code (a final substitute, with the socket constructors):
     * the {@linkplain DefaultSocketFactory#get() default socket factory}'s TLS factory of {@code context}, which layers
     * TLS over Flow's sockets so that it suspends ({@link AsyncSocketFactory#tlsSocketFactory}); {@code context}'s own
     * if there is none. Never waits.
     */
    public static SSLSocketFactory tlsSocketFactory(SSLContext context) {
        AsyncSocketFactory f = DefaultSocketFactory.get();
        return f != null ? f.tlsSocketFactory(context) : context.getSocketFactory();
    }

    /**
     * Replaces {@code SSLSocketFactory.getDefault()} in loaded code (a static substitute): {@link #tlsSocketFactory}
     * of the default {@code SSLContext}, which is what the JDK's is unless the security property {@code
     * ssl.SocketFactory.provider} names another class (then the JDK's, as when there is no default context). Never
     * waits.
     */
    public static SocketFactory defaultTlsSocketFactory() {
        AsyncSocketFactory f = DefaultSocketFactory.get();
        if (f == null || java.security.Security.getProperty("ssl.SocketFactory.provider") != null) {
            return SSLSocketFactory.getDefault();
        }
        try {
            return f.tlsSocketFactory(SSLContext.getDefault());
        } catch (java.security.NoSuchAlgorithmException e) {
            return SSLSocketFactory.getDefault();
        }
    }

    /** Replaces {@code SSLSocket.startHandshake()}: Flow's TLS sockets ({@link AsyncTlsSocket}) handshake suspending. */
    public static void startHandshake(SSLSocket s) throws IOException {
        if (!(s instanceof AsyncTlsSocket)) {
            s.startHandshake();
            return;
        }
        handshake((AsyncTlsSocket) s, true);
    }

    /**
     * Replaces {@code SSLSocket.getSession()}: on Flow's TLS sockets a handshake not done yet runs first, suspending;
     * as the JDK's, a failed handshake is not thrown here, the socket's session then shows it.
     */
    public static SSLSession tlsSession(SSLSocket s) {
        if (!(s instanceof AsyncTlsSocket)) {
            return s.getSession();
        }
        AsyncTlsSocket a = (AsyncTlsSocket) s;
        try {
            handshake(a, true);
        } catch (IOException e) {
            // As the JDK's getSession(): a failed handshake shows as the session returned, not as an exception.
        }
        return a.currentSession();
    }

    /**
     * Handshakes {@code s}: starts the handshake, waits for it within the socket's {@code soTimeout} (suspending if
     * {@code suspend} and the flow can, else blocking the thread), finishes it (which throws on failure, timeout
     * or interrupt).
     */
    public static void handshake(AsyncTlsSocket s, boolean suspend) throws IOException {
        Object handshake = s.startHandshakeAsync();
        if (handshake != null) {
            awaitAttempt(handshake, TimeUnit.MILLISECONDS.toNanos(((Socket) s).getSoTimeout()), suspend);
        }
        s.finishHandshake(handshake);
    }

    /** Replaces {@code new Socket(String, int)}: as {@link #newSocket()}, connected (suspending) as the JDK's constructor. */
    public static Socket newSocket(String host, int port) throws IOException {
        AsyncSocketFactory f = DefaultSocketFactory.get();
        return f != null ? connected(f, socketAddress(host, port), null) : new Socket(host, port);
    }

    /** Replaces {@code new Socket(InetAddress, int)} (a null address throws {@code NullPointerException}, as the JDK's). */
    public static Socket newSocket(InetAddress address, int port) throws IOException {
        AsyncSocketFactory f = DefaultSocketFactory.get();
        if (f == null) {
            return new Socket(address, port);
        }
        InetSocketAddress remote = new InetSocketAddress(java.util.Objects.requireNonNull(address), port);
        return connected(f, remote, null);
    }

    /** Replaces {@code new Socket(String, int, InetAddress, int)}: bound to the local address, then connected. */
    public static Socket newSocket(String host, int port, InetAddress localAddr, int localPort) throws IOException {
        AsyncSocketFactory f = DefaultSocketFactory.get();
        return f != null ? connected(f, socketAddress(host, port), new InetSocketAddress(localAddr, localPort))
                : new Socket(host, port, localAddr, localPort);
    }

    /** Replaces {@code new Socket(InetAddress, int, InetAddress, int)}. */
    public static Socket newSocket(InetAddress address, int port, InetAddress localAddr, int localPort) throws IOException {
        AsyncSocketFactory f = DefaultSocketFactory.get();
        if (f == null) {
            return new Socket(address, port, localAddr, localPort);
        }
        InetSocketAddress remote = new InetSocketAddress(java.util.Objects.requireNonNull(address), port);
        return connected(f, remote, new InetSocketAddress(localAddr, localPort));
    }

    /**
     * What {@code new Socket(host, port)} connects to: a null host is the loopback address; a name is looked up as
     * {@link #newInetSocketAddress} does (in a flow on a lookup thread); a name that does not resolve gives an
     * unresolved address, which the connect refuses with the JDK's {@code UnknownHostException}.
     */
    private static InetSocketAddress socketAddress(String host, int port) {
        return host == null ? new InetSocketAddress(InetAddress.getLoopbackAddress(), port) : newInetSocketAddress(host, port);
    }

    /** A socket of {@code f}, bound to {@code local} if not null, connected to {@code remote} (suspending); closed on failure. */
    private static Socket connected(AsyncSocketFactory f, InetSocketAddress remote, InetSocketAddress local)
            throws IOException {
        Socket s = f.createSocket();
        boolean ok = false;
        try {
            if (local != null) {
                s.bind(local);
            }
            connect((AsyncSocket) s, remote, 0, true);
            ok = true;
            return s;
        } finally {
            if (!ok) {
                s.close();
            }
        }
    }

    /**
     * Waits for a connection attempt: suspends if {@code suspend} and the flow can, else blocks the thread
     * (a pinned wait inside a flow, reported as such).
     *
     * @return whether the attempt is done ({@code false}: timed out or interrupted)
     */
    private static boolean awaitAttempt(Object attempt, long timeoutNanos, boolean suspend) {
        if (Waits.isDone(attempt)) {
            return true;
        }
        if (suspend) {
            int r = suspend(attempt, timeoutNanos, FlowState.IO);
            if (r >= 0) {
                return r == 1;
            }
        } else {
            UninstrumentedWaits.onBlockingWait();
        }
        return Waits.block(attempt, timeoutNanos);
    }

    // ---------------------------------------------------------------- name lookups
    //
    // The JDK's resolver blocks its caller. In a flow, a lookup that asks it (a name that is not an IP literal,
    // Polling.needsNoLookup; a reverse lookup of an address made without a name; the local host) is the JDK's
    // own call made on one of Flow's lookup threads (NameLookups) while the flow waits, suspending where it can;
    // outside a flow, and for what needs no resolver, the JDK's call runs in place. A strict loader's check before
    // a suspension point (Pins.checkAwait: refused when pinned at a strict site) is made here, only for a lookup
    // that asks the resolver: a literal's lookup under a monitor does not wait, and is not refused.

    /** Replaces {@code InetAddress.getByName(String)}. */
    public static InetAddress getByName(String host) throws UnknownHostException {
        if (FlowState.current() == null || Polling.needsNoLookup(host)) {
            return InetAddress.getByName(host);
        }
        Pins.checkAwait();
        return lookedUp(NameLookups.byName(host));
    }

    /** Replaces {@code InetAddress.getAllByName(String)}. */
    public static InetAddress[] getAllByName(String host) throws UnknownHostException {
        if (FlowState.current() == null || Polling.needsNoLookup(host)) {
            return InetAddress.getAllByName(host);
        }
        Pins.checkAwait();
        return lookedUp(NameLookups.allByName(host));
    }

    /** Replaces {@code InetAddress.getLocalHost()}. */
    public static InetAddress getLocalHost() throws UnknownHostException {
        if (FlowState.current() == null) {
            return InetAddress.getLocalHost();
        }
        Pins.checkAwait();
        return lookedUp(NameLookups.localHost());
    }

    /** Replaces {@code InetAddress.getHostName()}: a reverse lookup when the address was made without a name. */
    public static String hostName(InetAddress a) {
        if (a == null || FlowState.current() == null || !a.toString().startsWith("/")) {
            return a.getHostName();
        }
        Pins.checkAwait();
        return reverseLookedUp(NameLookups.hostName(a));
    }

    /** Replaces {@code InetAddress.getCanonicalHostName()}: always a reverse lookup. */
    public static String canonicalHostName(InetAddress a) {
        if (a == null || FlowState.current() == null) {
            return a.getCanonicalHostName();
        }
        Pins.checkAwait();
        return reverseLookedUp(NameLookups.canonicalHostName(a));
    }

    /** Replaces {@code InetSocketAddress.getHostName()}: a reverse lookup when the address was made without a name. */
    public static String hostName(InetSocketAddress a) {
        if (a == null || FlowState.current() == null || !a.toString().startsWith("/")) {
            return a.getHostName();
        }
        Pins.checkAwait();
        return reverseLookedUp(NameLookups.hostName(a));
    }

    /**
     * Replaces {@code new InetSocketAddress(String, int)}: a name is looked up as the JDK's constructor does (in a
     * flow on a lookup thread), and one that does not resolve gives an unresolved address, as the JDK's; a null
     * host or a port out of range throws the JDK's {@code IllegalArgumentException} before any lookup.
     */
    public static InetSocketAddress newInetSocketAddress(String host, int port) {
        if (FlowState.current() == null || host == null || Polling.needsNoLookup(host) || port < 0 || port > 0xFFFF) {
            return new InetSocketAddress(host, port);
        }
        Pins.checkAwait();
        try {
            return new InetSocketAddress(lookedUp(NameLookups.byName(host)), port);
        } catch (UnknownHostException e) {
            return InetSocketAddress.createUnresolved(host, port);
        }
    }

    /**
     * The result of a lookup running on a lookup thread, waited for by {@link #awaitLookup}; its {@code
     * UnknownHostException} is thrown as a new one with the same message, made on this thread (the JDK's has no
     * cause), its unchecked exceptions as they are.
     */
    private static <T> T lookedUp(CompletableFuture<T> lookup) throws UnknownHostException {
        awaitLookup(lookup);
        try {
            return lookup.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof UnknownHostException) {
                throw new UnknownHostException(e.getCause().getMessage());
            }
            throw unchecked(e);
        }
    }

    /** {@link #lookedUp} for a reverse lookup, which throws nothing checked (the JDK's gives the address's literal). */
    private static String reverseLookedUp(CompletableFuture<String> lookup) {
        awaitLookup(lookup);
        try {
            return lookup.join();
        } catch (java.util.concurrent.CompletionException e) {
            throw unchecked(e);
        }
    }

    /**
     * Waits for {@code lookup} as {@link #ready} does, but whether or not it is done yet: a flow suspends (and resumes
     * at once if it is), a pinned flow reports its pinned wait and blocks, so that a lookup in a pinned frame is
     * reported every time, not only when the lookup thread is slower than this one.
     */
    private static void awaitLookup(CompletableFuture<?> lookup) {
        FlowState f = FlowState.prepare(lookup, 0, FlowState.UNINTERRUPTIBLE);
        if (f != null) {
            Continuation.suspend();
            f.afterResume();
        }
    }

    /** The unchecked exception {@code e} wraps, to be thrown (an {@code Error} is thrown here), or {@code e}. */
    private static RuntimeException unchecked(java.util.concurrent.CompletionException e) {
        if (e.getCause() instanceof Error) {
            throw (Error) e.getCause();
        }
        return e.getCause() instanceof RuntimeException ? (RuntimeException) e.getCause() : e;
    }

    // ---------------------------------------------------------------- transports
    //
    // Each Transport method has a form replacing its call sites (suspends in a flow) and, for an
    // AsyncTransport, a loop over the non-blocking primitives taking "suspend": true for those
    // forms, false for a transport's own blocking methods (called from uninstrumented code, they
    // block the thread).

    /** Replaces {@code Transport.readLine()}. */
    public static String readLine(Transport t) throws IOException {
        if (!(t instanceof AsyncTransport)) {
            return t.readLine();
        }
        TransportConfig c = t.config();
        return (String) line((AsyncTransport) t, c.lineTerminator(), c.maxLineLength(), null, true);
    }

    /** Replaces {@code Transport.readLine(LineTerminator, int)}. */
    public static String readLine(Transport t, LineTerminator terminator, int maxLength) throws IOException {
        if (!(t instanceof AsyncTransport)) {
            return t.readLine(terminator, maxLength);
        }
        return (String) line((AsyncTransport) t, terminator, maxLength, null, true);
    }

    /** Replaces {@code Transport.read(byte[], int, int)}. */
    public static int read(Transport t, byte[] dst, int off, int len) throws IOException {
        if (!(t instanceof AsyncTransport)) {
            return t.read(dst, off, len);
        }
        return read((AsyncTransport) t, dst, off, len, true);
    }

    /** Replaces {@code Transport.readFully(byte[], int, int)}. */
    public static void readFully(Transport t, byte[] dst, int off, int len) throws IOException {
        if (!(t instanceof AsyncTransport)) {
            t.readFully(dst, off, len);
            return;
        }
        readFully((AsyncTransport) t, dst, off, len, true);
    }

    /** Replaces {@code Transport.readFully(int)}. */
    public static byte[] readFully(Transport t, int n) throws IOException {
        if (!(t instanceof AsyncTransport)) {
            return t.readFully(n);
        }
        return readFully((AsyncTransport) t, n, true);
    }

    /** Replaces {@code Transport.skip(long)}. */
    public static void skip(Transport t, long n) throws IOException {
        if (!(t instanceof AsyncTransport)) {
            t.skip(n);
            return;
        }
        skip((AsyncTransport) t, n, true);
    }

    /** Replaces {@code Transport.writeLine(String)}. */
    public static void writeLine(Transport t, String line) throws IOException {
        if (!(t instanceof AsyncTransport)) {
            t.writeLine(line);
            return;
        }
        AsyncTransport a = (AsyncTransport) t;
        awaitWrite(a, a.writeLineAsync(line), true);
    }

    /** Replaces {@code Transport.write(byte[], int, int)}. */
    public static void write(Transport t, byte[] src, int off, int len) throws IOException {
        if (!(t instanceof AsyncTransport)) {
            t.write(src, off, len);
            return;
        }
        AsyncTransport a = (AsyncTransport) t;
        awaitWrite(a, a.writeAsync(src, off, len), true);
    }

    /** Replaces {@code Transport.write(byte[])}. */
    public static void write(Transport t, byte[] src) throws IOException {
        if (!(t instanceof AsyncTransport)) {
            t.write(src);
            return;
        }
        AsyncTransport a = (AsyncTransport) t;
        awaitWrite(a, a.writeAsync(src, 0, src.length), true);
    }

    /** Replaces {@code Transport.writeText(String)}. */
    public static void writeText(Transport t, String text) throws IOException {
        if (!(t instanceof AsyncTransport)) {
            t.writeText(text);
            return;
        }
        AsyncTransport a = (AsyncTransport) t;
        awaitWrite(a, a.writeTextAsync(text), true);
    }

    /** Replaces {@code Transport.flush()}. */
    public static void flush(Transport t) throws IOException {
        if (!(t instanceof AsyncTransport)) {
            t.flush();
            return;
        }
        AsyncTransport a = (AsyncTransport) t;
        awaitWrite(a, a.flushAsync(), true);
    }

    /** Replaces {@code Transport.startTls(TlsUpgrade)}. */
    public static SSLSession startTls(Transport t, TlsUpgrade upgrade) throws IOException {
        if (!(t instanceof AsyncTransport)) {
            return t.startTls(upgrade);
        }
        return startTls((AsyncTransport) t, upgrade, true);
    }

    /**
     * Upgrades {@code a} to TLS: starts the upgrade, waits for the handshake within its timeout, returns
     * its outcome.
     *
     * @param suspend whether the wait may suspend the flow ({@code false}: it blocks the thread)
     */
    public static SSLSession startTls(AsyncTransport a, TlsUpgrade upgrade, boolean suspend) throws IOException {
        java.util.Objects.requireNonNull(upgrade, "upgrade");
        Awaitable handshake = a.startTlsAsync(upgrade);
        waitIo(handshake, saturatedNanos(upgrade.handshakeTimeout()), suspend);
        return a.finishTls(handshake);
    }

    /** The refusal of a TLS upgrade by a transport that cannot do one, naming it. */
    public static UnsupportedOperationException tlsUnsupported(Transport t) {
        return new UnsupportedOperationException("startTls: " + t.getClass().getName() + " to " + t.remoteAddress()
                + " cannot upgrade to TLS (expected: a transport over a MINA TCP session, from FlowServer or"
                + " FlowConnector)");
    }

    /** Replaces {@code Transport.readLineBytes()}. */
    public static Line readLineBytes(Transport t) throws IOException {
        if (!(t instanceof AsyncTransport)) {
            return t.readLineBytes();
        }
        TransportConfig c = t.config();
        return (Line) line((AsyncTransport) t, c.lineTerminator(), c.maxLineLength(),
                new LineScanner(c.lineTerminator(), c.maxLineLength()), true);
    }

    /** Replaces {@code Transport.readLineBytes(LineTerminator, int)}. */
    public static Line readLineBytes(Transport t, LineTerminator terminator, int maxBytes) throws IOException {
        if (!(t instanceof AsyncTransport)) {
            return t.readLineBytes(terminator, maxBytes);
        }
        return (Line) line((AsyncTransport) t, terminator, maxBytes, new LineScanner(terminator, maxBytes), true);
    }

    /** Replaces {@code Transport.readDotBody(OutputStream, long)}. */
    public static long readDotBody(Transport t, OutputStream sink, long maxBytes) throws IOException {
        if (!(t instanceof AsyncTransport)) {
            return t.readDotBody(sink, maxBytes);
        }
        return readDotBody((AsyncTransport) t, sink, maxBytes, true);
    }

    /** Replaces {@code Transport.flushIfNoInput()}. */
    public static boolean flushIfNoInput(Transport t) throws IOException {
        if (!(t instanceof AsyncTransport)) {
            return t.flushIfNoInput();
        }
        AsyncTransport a = (AsyncTransport) t;
        if (a.available() != 0) {
            return false;
        }
        awaitWrite(a, a.flushAsync(), true);
        return true;
    }

    // ---------------------------------------------------------------- java.io streams
    //
    // Call sites of InputStream/OutputStream methods are suspension points: a Transport's own view
    // suspends like the transport; any other stream gets the plain call. The loader's strict check
    // by site therefore happens here, for views only: an in-memory stream inside a monitor is fine.

    /** {@code InputStream.skip}'s largest read when it skips by reading. */
    private static final int SKIP_BUFFER = 2048;

    private static Transport viewed(TransportInputStream in) {
        Pins.checkAwait();
        return in.transport();
    }

    private static Transport viewed(TransportOutputStream out) {
        Pins.checkAwait();
        return out.transport();
    }

    /** Replaces {@code InputStream.read()}. */
    public static int inputRead(InputStream in) throws IOException {
        if (!(in instanceof TransportInputStream)) {
            return in.read();
        }
        byte[] one = new byte[1];
        int n = read(viewed((TransportInputStream) in), one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    /** Replaces {@code InputStream.read(byte[])}. */
    public static int inputRead(InputStream in, byte[] dst) throws IOException {
        if (!(in instanceof TransportInputStream)) {
            return in instanceof DataInputStream ? FlowData.read((DataInputStream) in, dst) : in.read(dst);
        }
        return read(viewed((TransportInputStream) in), dst, 0, dst.length);
    }

    /** Replaces {@code InputStream.read(byte[], int, int)}. */
    public static int inputRead(InputStream in, byte[] dst, int off, int len) throws IOException {
        if (!(in instanceof TransportInputStream)) {
            return in instanceof DataInputStream ? FlowData.read((DataInputStream) in, dst, off, len) : in.read(dst, off, len);
        }
        return read(viewed((TransportInputStream) in), dst, off, len);
    }

    /** Replaces {@code InputStream.readNBytes(byte[], int, int)}: reads until {@code len} bytes or end of stream. */
    public static int inputReadNBytes(InputStream in, byte[] dst, int off, int len) throws IOException {
        if (!(in instanceof TransportInputStream)) {
            return in.readNBytes(dst, off, len);
        }
        java.util.Objects.checkFromIndexSize(off, len, dst.length);
        Transport t = viewed((TransportInputStream) in);
        int got = 0;
        while (got < len) {
            int n = read(t, dst, off + got, len - got);
            if (n < 0) {
                break;
            }
            got += n;
        }
        return got;
    }

    /**
     * Replaces {@code InputStream.skip(long)}: for a view, as {@link TransportInputStream#skip(long)}
     * (the buffered bytes without waiting, else reads until {@code n} bytes or the end, as {@code
     * InputStream.skip} does), waiting as a read does.
     */
    public static long inputSkip(InputStream in, long n) throws IOException {
        if (!(in instanceof TransportInputStream)) {
            return in.skip(n);
        }
        if (n <= 0) {
            return 0;
        }
        Transport t = viewed((TransportInputStream) in);
        int buffered = t.available();
        if (buffered > 0) {
            long k = Math.min(n, buffered);
            skip(t, k);
            return k;
        }
        int size = (int) Math.min(SKIP_BUFFER, n);
        byte[] skipped = new byte[size];
        long remaining = n;
        while (remaining > 0) {
            int nr = read(t, skipped, 0, (int) Math.min(size, remaining));
            if (nr < 0) {
                break;
            }
            remaining -= nr;
        }
        return n - remaining;
    }

    /**
     * Before a read of {@code decorator}, a JDK {@code DataInputStream} made outside the scope (its reads
     * are final, so Flow's cannot take its place): in a flow, if a transport view is under it and the
     * decorators between count every byte the view has buffered in their {@code available()}, waits
     * (suspending) until {@code available()} reaches {@code need} or the input ends, so that the JDK's own
     * read that follows does not wait; the read's calls of the view are then allowed in strict mode too,
     * until {@link #endDecorated(boolean)}. Returns whether it did; otherwise the read is left to the JDK
     * as it is (it pins if it must wait). A decorator whose {@code available()} throws is left to the read
     * to fail.
     */
    public static boolean awaitDecorated(Object decorator, int need) throws IOException {
        FlowState f = FlowState.current();
        if (f == null || f.decoratedReady() || !(decorator instanceof java.io.DataInputStream)) {
            return false;
        }
        InputStream d = (InputStream) decorator;
        TransportInputStream view;
        try {
            view = TransportInputStream.under(d);
        } catch (IOException e) {
            return false;
        }
        if (view == null || !(view.transport() instanceof AsyncTransport)) {
            return false;
        }
        AsyncTransport a = (AsyncTransport) view.transport();
        byte[] none = new byte[0];
        for (;;) {
            int buffered = a.available();
            int ready;
            try {
                ready = d.available();
            } catch (IOException e) {
                return false;
            }
            if (ready < buffered) {
                return false;
            }
            if (ready >= need || a.isInputClosed()) {
                break;
            }
            a.pollRead(none, 0, 0);
            awaitInput(a, true, false, 0);
            if (a.available() == buffered && !a.isInputClosed()) {
                return false; // woke with nothing new: leave the read to the JDK
            }
        }
        f.decoratedReady(true);
        return true;
    }

    /**
     * {@code d.read(b, off, len)} of a {@code DataInputStream} made outside the scope, made once a byte is
     * buffered under it ({@link #awaitDecorated(Object, int)}). A plain call here: at a call site in loaded
     * code it would be a suspension point again.
     */
    public static int readDecorated(DataInputStream d, byte[] b, int off, int len) throws IOException {
        boolean ready = len > 0 && awaitDecorated(d, 1);
        try {
            return d.read(b, off, len);
        } finally {
            endDecorated(ready);
        }
    }

    /** {@code d.read(b)}, as {@link #readDecorated(DataInputStream, byte[], int, int)}. */
    public static int readDecorated(DataInputStream d, byte[] b) throws IOException {
        boolean ready = b != null && b.length > 0 && awaitDecorated(d, 1);
        try {
            return d.read(b);
        } finally {
            endDecorated(ready);
        }
    }

    /**
     * {@code d.skip(n)} of a {@code DataInputStream} made outside the scope (one step of its {@code skipBytes}),
     * made once a byte is buffered under it, as {@link #readDecorated(DataInputStream, byte[], int, int)}.
     */
    public static long skipDecorated(DataInputStream d, long n) throws IOException {
        boolean ready = n > 0 && awaitDecorated(d, 1);
        try {
            return d.skip(n);
        } finally {
            endDecorated(ready);
        }
    }

    /**
     * Before the deprecated {@code readLine()} of {@code d}, a JDK {@code DataInputStream} made outside the
     * scope: if a transport view is under it, the call is reported at the calling method's site as a
     * blocking call with no suspendable form ({@link UninstrumentedWaits#onBlockingCall()}: a warning once
     * per site, refused in strict mode), whether or not it would wait; then the JDK's call is made. It
     * cannot be made to suspend faithfully: how many bytes it reads depends on bytes that the decorators
     * between it and the view may hold unseen, and it puts back a byte after a lone {@code '\r'} by
     * replacing its protected {@code in}, which only the JDK's own code can do.
     */
    public static void beforeDecoratedReadLine(DataInputStream d) {
        if (FlowState.current() == null) {
            return;
        }
        try {
            if (TransportInputStream.under(d) == null) {
                return;
            }
        } catch (IOException e) {
            return; // the read fails as loaded normally
        }
        UninstrumentedWaits.onBlockingCall();
    }

    /** Ends what {@link #awaitDecorated(Object, int)} allowed, if it returned {@code true}. */
    public static void endDecorated(boolean allowed) {
        if (allowed) {
            FlowState.current().decoratedReady(false);
        }
    }

    /**
     * Before a write or flush of {@code out}, in a flow, when it is a JDK {@code DataOutputStream} made
     * outside the scope (its typed writes are final, so Flow's cannot take its place): defers the waits of
     * the writes and flushes its call makes on a transport view under it, through JDK streams that let
     * their exceptions through ({@code BufferedOutputStream}, ...): they are queued as {@code
     * Transport.write/flush} queues them, and {@link #awaitDecoratedWrites(Object)} waits for them,
     * suspending, after the JDK's call returned, so it does not wait inside the JDK's frames (nor is it
     * refused in strict mode). Returns the deferral to end with {@link #endDecoratedWrites(Object)} (in a
     * {@code finally}) and then await, or {@code null} for any other stream or outside a flow.
     */
    public static Object deferDecoratedWrites(Object out) {
        if (out == null || out.getClass() != java.io.DataOutputStream.class || FlowState.current() == null) {
            return null;
        }
        return TransportOutputStream.deferWrites();
    }

    /** Ends a deferral of {@link #deferDecoratedWrites(Object)}, if not {@code null}. */
    public static void endDecoratedWrites(Object deferred) {
        if (deferred != null) {
            TransportOutputStream.stopDeferring((TransportOutputStream.Deferred) deferred);
        }
    }

    /**
     * Waits, suspending, for each write and flush deferred by {@code deferred} ({@link
     * #deferDecoratedWrites(Object)}), in order, as the transport's own write would have (within the write
     * timeout; its failure rethrown). Nothing if {@code null}.
     */
    public static void awaitDecoratedWrites(Object deferred) throws IOException {
        if (deferred == null) {
            return;
        }
        TransportOutputStream.Deferred d = (TransportOutputStream.Deferred) deferred;
        for (Object[] w = d.next(); w != null; w = d.next()) {
            awaitWrite((AsyncTransport) w[0], (Awaitable) w[1], true);
        }
    }

    /** Replaces {@code OutputStream.write(int)}. */
    public static void outputWrite(OutputStream out, int b) throws IOException {
        if (!(out instanceof TransportOutputStream)) {
            Object deferred = deferDecoratedWrites(out);
            try {
                out.write(b);
            } finally {
                endDecoratedWrites(deferred);
            }
            awaitDecoratedWrites(deferred);
            return;
        }
        write(viewed((TransportOutputStream) out), new byte[] {(byte) b}, 0, 1);
    }

    /** Replaces {@code OutputStream.write(byte[])}. */
    public static void outputWrite(OutputStream out, byte[] src) throws IOException {
        if (!(out instanceof TransportOutputStream)) {
            Object deferred = deferDecoratedWrites(out);
            try {
                out.write(src);
            } finally {
                endDecoratedWrites(deferred);
            }
            awaitDecoratedWrites(deferred);
            return;
        }
        write(viewed((TransportOutputStream) out), src, 0, src.length);
    }

    /** Replaces {@code OutputStream.write(byte[], int, int)}. */
    public static void outputWrite(OutputStream out, byte[] src, int off, int len) throws IOException {
        if (!(out instanceof TransportOutputStream)) {
            Object deferred = deferDecoratedWrites(out);
            try {
                out.write(src, off, len);
            } finally {
                endDecoratedWrites(deferred);
            }
            awaitDecoratedWrites(deferred);
            return;
        }
        write(viewed((TransportOutputStream) out), src, off, len);
    }

    /**
     * The stream replacements' forms that know their call site ({@code site}, a {@code
     * Pins.Reason.BLOCKING_CALL} site): a piped stream waits for its peer inside the JDK (as a plain JDK
     * socket's stream does: {@link Polling#blocksInJdk(Class)}), so in a flow
     * its {@code read}, {@code readNBytes}, {@code skip} and {@code write} are reported at the site (a
     * warning once per site; refused in strict mode) and block, whether or not this call would wait.
     */
    public static int inputRead(InputStream in, int site) throws IOException {
        piped(in, site);
        return inputRead(in);
    }

    /** {@link #inputRead(InputStream, int)} for {@code read(byte[])}. */
    public static int inputRead(InputStream in, byte[] dst, int site) throws IOException {
        piped(in, site);
        return inputRead(in, dst);
    }

    /** {@link #inputRead(InputStream, int)} for {@code read(byte[], int, int)}. */
    public static int inputRead(InputStream in, byte[] dst, int off, int len, int site) throws IOException {
        piped(in, site);
        return inputRead(in, dst, off, len);
    }

    /** {@link #inputRead(InputStream, int)} for {@code readNBytes(byte[], int, int)}. */
    public static int inputReadNBytes(InputStream in, byte[] dst, int off, int len, int site) throws IOException {
        piped(in, site);
        return inputReadNBytes(in, dst, off, len);
    }

    /** {@link #inputRead(InputStream, int)} for {@code skip(long)}. */
    public static long inputSkip(InputStream in, long n, int site) throws IOException {
        piped(in, site);
        return inputSkip(in, n);
    }

    /** {@link #inputRead(InputStream, int)} for {@code write(int)}. */
    public static void outputWrite(OutputStream out, int b, int site) throws IOException {
        piped(out, site);
        outputWrite(out, b);
    }

    /** {@link #inputRead(InputStream, int)} for {@code write(byte[])}. */
    public static void outputWrite(OutputStream out, byte[] src, int site) throws IOException {
        piped(out, site);
        outputWrite(out, src);
    }

    /** {@link #inputRead(InputStream, int)} for {@code write(byte[], int, int)}. */
    public static void outputWrite(OutputStream out, byte[] src, int off, int len, int site) throws IOException {
        piped(out, site);
        outputWrite(out, src, off, len);
    }

    /**
     * Whether the stream replacements report a stream of type {@code type} at their site: a piped stream or
     * another stream that waits inside the JDK ({@link Polling#blocksInJdk(Class)}).
     */
    public static boolean reportsAtSite(Class<?> type) {
        return Polling.blocksInJdk(type);
    }

    private static void piped(Object stream, int site) {
        Polling.piped(stream, site);
    }

    /** Replaces {@code OutputStream.flush()}. */
    public static void outputFlush(OutputStream out) throws IOException {
        if (!(out instanceof TransportOutputStream)) {
            Object deferred = deferDecoratedWrites(out);
            try {
                out.flush();
            } finally {
                endDecoratedWrites(deferred);
            }
            awaitDecoratedWrites(deferred);
            return;
        }
        flush(viewed((TransportOutputStream) out));
    }

    /**
     * Reads a line from {@code a}: polls, and waits for input while none is complete, within the
     * read timeout per wait and the line timeout in total (counted from the first byte of the line
     * seen while waiting, or from the call if bytes were buffered).
     *
     * @param suspend whether waits may suspend the flow ({@code false}: they block the thread)
     */
    public static String readLine(AsyncTransport a, LineTerminator terminator, int maxLength, boolean suspend)
            throws IOException {
        return (String) line(a, terminator, maxLength, null, suspend);
    }

    /**
     * Reads a line as bytes from {@code a}: scans the input with a {@link LineScanner}, and waits for
     * input while no line is complete, with the timeouts of {@link #readLine(AsyncTransport,
     * LineTerminator, int, boolean)}.
     *
     * @param suspend whether waits may suspend the flow ({@code false}: they block the thread)
     */
    public static Line readLineBytes(AsyncTransport a, LineTerminator terminator, int maxBytes, boolean suspend)
            throws IOException {
        return (Line) line(a, terminator, maxBytes, new LineScanner(terminator, maxBytes), suspend);
    }

    /**
     * The loop of both line reads: a text line ({@code scanner == null}: {@code pollLine}) or a byte
     * line ({@code pollScan} with {@code scanner}). The suspending forms call it directly, so that a
     * wait captures as few frames as before byte lines existed.
     */
    private static Object line(AsyncTransport a, LineTerminator terminator, int maxLength, LineScanner scanner,
            boolean suspend) throws IOException {
        long lineTimeout = saturatedNanos(a.config().lineTimeout());
        long deadline = 0;
        boolean started = false;
        for (;;) {
            Object line = pollLine(a, terminator, maxLength, scanner);
            if (line == END) {
                return null;
            }
            if (line != null) {
                return line;
            }
            // Nothing to take. The end of input is read only now, so a line already buffered costs one
            // poll; if the input ended after the poll looked, one more poll (the last) returns the
            // unterminated rest.
            if (a.isInputClosed()) {
                line = pollLine(a, terminator, maxLength, scanner);
                return line == END ? null : line;
            }
            if (lineTimeout > 0 && !started && a.available() > 0) {
                started = true;
                deadline = System.nanoTime() + lineTimeout;
            }
            awaitInput(a, suspend, started, deadline);
        }
    }

    /** What {@link #pollLine} returns when a byte line's scan saw the end of input with nothing buffered. */
    private static final Object END = new Object();

    /**
     * One poll of a text line ({@code scanner == null}) or a byte line: the line, {@code null} if none is
     * complete, or {@link #END} if a byte line's scan found the input ended with nothing buffered.
     */
    private static Object pollLine(AsyncTransport a, LineTerminator terminator, int maxLength, LineScanner scanner)
            throws IOException {
        if (scanner == null) {
            return a.pollLine(terminator, maxLength);
        }
        int n = a.pollScan(scanner);
        Object line = scanner.line();
        return line == null && n < 0 ? END : line;
    }

    /**
     * Reads a dot-terminated body from {@code a} into {@code sink} (see {@link
     * Transport#readDotBody(OutputStream, long)}): scans the input with a {@link DotBodyScanner}, writing
     * what it decoded to {@code sink} after each scan, and waits for input within the read timeout and
     * the deadlines.
     *
     * @param suspend whether waits may suspend the flow ({@code false}: they block the thread)
     */
    public static long readDotBody(AsyncTransport a, OutputStream sink, long maxBytes, boolean suspend)
            throws IOException {
        java.util.Objects.requireNonNull(sink, "sink");
        DotBodyScanner scanner = new DotBodyScanner(maxBytes);
        for (;;) {
            boolean ended = a.isInputClosed();
            int n = a.pollScan(scanner);
            scanner.drainTo(sink);
            if (scanner.done()) {
                return dotBodyResult(scanner);
            }
            if (n < 0 || (n == 0 && ended)) {
                throw dotBodyEnded(a, scanner);
            }
            if (n == 0) {
                awaitInput(a, suspend, false, 0);
            }
        }
    }

    /** The size of a finished body; {@link BodyTooLargeException} if it exceeded its limit. */
    public static long dotBodyResult(DotBodyScanner scanner) throws BodyTooLargeException {
        if (scanner.exceeded()) {
            throw new BodyTooLargeException(scanner.size(), scanner.limit());
        }
        return scanner.size();
    }

    /** The exception for a stream that ended inside a dot-terminated body. */
    public static EOFException dotBodyEnded(Transport t, DotBodyScanner scanner) {
        return new EOFException("end of stream from " + t.remoteAddress() + " inside a dot-terminated body after "
                + scanner.size() + " bytes (expected: a line holding only \".\")");
    }

    /** Reads at least one byte from {@code a}, waiting as {@link #readLine(AsyncTransport, LineTerminator, int, boolean)}. */
    public static int read(AsyncTransport a, byte[] dst, int off, int len, boolean suspend) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, dst.length);
        if (len == 0) {
            return 0;
        }
        for (;;) {
            int n = a.pollRead(dst, off, len);
            if (n != 0) {
                return n;
            }
            awaitInput(a, suspend, false, 0);
        }
    }

    /** Reads exactly {@code len} bytes from {@code a}; {@link EOFException} if the stream ends first. */
    public static void readFully(AsyncTransport a, byte[] dst, int off, int len, boolean suspend) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, dst.length);
        int got = 0;
        while (got < len) {
            int n = a.pollRead(dst, off + got, len - got);
            if (n < 0) {
                throw endOfStream(a, len - got, len);
            }
            if (n == 0) {
                awaitInput(a, suspend, false, 0);
            }
            got += n;
        }
    }

    /**
     * Reads exactly {@code n} bytes of {@code a} into a new array that grows as they arrive (see {@link
     * #EXACT_READ}), each growth first reserved with {@link AsyncTransport#reserveInputMemory}; released
     * when the read ends, whatever way, unless a {@linkplain AsyncTransport#holdingReads() hold} keeps
     * it (under a hold, an array allocated at once is reserved too). {@link EOFException} if the stream
     * ends first.
     */
    public static byte[] readFully(AsyncTransport a, int n, boolean suspend) throws IOException {
        checkLength(n);
        boolean done = false;
        if (n <= EXACT_READ) {
            long held = n > 0 && a.holdingReads() ? n : 0;
            if (held > 0) {
                a.reserveInputMemory(held, n);
            }
            try {
                byte[] b = new byte[n];
                readFully(a, b, 0, n, suspend);
                done = true;
                return b;
            } finally {
                if (held > 0 && !(done && a.keepInputMemory(held))) {
                    a.releaseInputMemory(held);
                }
            }
        }
        byte[] b = new byte[0];
        byte[] one = new byte[1];
        long reserved = 0;
        int got = 0;
        try {
            while (got < n) {
                if (got == b.length) {
                    // Full (or nothing yet): grow only once a byte has arrived.
                    int r = a.pollRead(one, 0, 1);
                    if (r < 0) {
                        throw endOfStream(a, n - got, n);
                    }
                    if (r == 0) {
                        awaitInput(a, suspend, false, 0);
                        continue;
                    }
                    int cap = grownCapacity(b.length, n, a.available() + 1);
                    a.reserveInputMemory(cap - b.length, n);
                    reserved += cap - b.length;
                    b = java.util.Arrays.copyOf(b, cap);
                    b[got++] = one[0];
                    continue;
                }
                int r = a.pollRead(b, got, b.length - got);
                if (r < 0) {
                    throw endOfStream(a, n - got, n);
                }
                if (r == 0) {
                    awaitInput(a, suspend, false, 0);
                    continue;
                }
                got += r;
            }
            done = true;
            return b;
        } finally {
            if (reserved > 0 && !(done && a.keepInputMemory(reserved))) {
                a.releaseInputMemory(reserved);
            }
        }
    }

    /**
     * {@code Transport.readFully(int)} of a transport that is not an {@link AsyncTransport}: blocks in
     * {@code t.read}, and grows the array as the bytes arrive like {@link #readFully(AsyncTransport, int,
     * boolean)}.
     */
    public static byte[] readFullyGrowing(Transport t, int n) throws IOException {
        checkLength(n);
        if (n <= EXACT_READ) {
            byte[] b = new byte[n];
            t.readFully(b, 0, n);
            return b;
        }
        byte[] b = new byte[0];
        byte[] one = new byte[1];
        int got = 0;
        while (got < n) {
            if (got == b.length) {
                if (t.read(one, 0, 1) < 0) {
                    throw endOfStream(t, n - got, n);
                }
                b = java.util.Arrays.copyOf(b, grownCapacity(b.length, n, t.available() + 1));
                b[got++] = one[0];
                continue;
            }
            int r = t.read(b, got, b.length - got);
            if (r < 0) {
                throw endOfStream(t, n - got, n);
            }
            got += r;
        }
        return b;
    }

    /**
     * The capacity after {@code capacity} of an array for a read of {@code n} bytes, with {@code
     * arrived} bytes at hand: at least {@link #EXACT_READ}, twice the old one or what has arrived if
     * more, at most {@code n} (so the last growth makes it exactly {@code n}).
     */
    private static int grownCapacity(int capacity, int n, int arrived) {
        long want = Math.max(Math.max(EXACT_READ, 2L * capacity), (long) capacity + arrived);
        return (int) Math.min(n, want);
    }

    private static void checkLength(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("n: " + n + " (expected: >= 0)");
        }
    }

    /** Discards exactly {@code n} bytes of {@code a}'s input; {@link EOFException} if the stream ends first. */
    public static void skip(AsyncTransport a, long n, boolean suspend) throws IOException {
        if (n < 0) {
            throw new IllegalArgumentException("n: " + n + " (expected: >= 0)");
        }
        long left = n;
        while (left > 0) {
            long k = a.pollSkip(left);
            if (k < 0) {
                throw endOfStream(a, left, n);
            }
            if (k == 0) {
                awaitInput(a, suspend, false, 0);
            }
            left -= k;
        }
    }

    /**
     * Waits for a write or flush of {@code a}, within the write timeout; on timeout {@link
     * AsyncTransport#writeTimedOut} ends the connection. Then rethrows the write's failure.
     */
    public static void awaitWrite(AsyncTransport a, Awaitable write, boolean suspend) throws IOException {
        Duration timeout = a.config().writeTimeout();
        if (!waitIo(write, saturatedNanos(timeout), suspend)) {
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedIOException("interrupted while writing to " + a.remoteAddress());
            }
            throw a.writeTimedOut(timeout);
        }
        a.checkWrite(write);
    }

    /** The exception for a stream that ended {@code missing} bytes short of the {@code wanted} ones. */
    public static EOFException endOfStream(Transport t, long missing, long wanted) {
        return new EOFException("end of stream from " + t.remoteAddress() + ": expected " + missing
                + " more bytes (of " + wanted + ")");
    }

    private static void awaitInput(AsyncTransport a, boolean suspend, boolean lineStarted, long deadline)
            throws IOException {
        TransportConfig c = a.config();
        long wait = saturatedNanos(c.readTimeout());
        // What limits this wait: 0 the read timeout (or nothing), 1 the line, 2 the request, 3 a deadline.
        int limit = 0;
        if (lineStarted) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw lineTimedOut(a);
            }
            if (wait == 0 || left < wait) {
                wait = left;
                limit = 1;
            }
        }
        // The request's deadline, checked once per wait: it moves as bytes arrive (minRequestRate).
        long requestLeft = a.requestNanosLeft();
        if (requestLeft != Long.MAX_VALUE) {
            if (requestLeft <= 0) {
                throw a.requestTimedOut();
            }
            if (wait == 0 || requestLeft < wait) {
                wait = requestLeft;
                limit = 2;
            }
        }
        ReadDeadlines deadlines = a.readDeadlines();
        long deadlineLeft = deadlines == null ? Long.MAX_VALUE : deadlines.nanosLeft();
        if (deadlineLeft != Long.MAX_VALUE) {
            if (deadlineLeft <= 0) {
                throw deadlines.exceeded(a.remoteAddress());
            }
            if (wait == 0 || deadlineLeft < wait) {
                wait = deadlineLeft;
                limit = 3;
            }
        }
        if (!waitIo(a.inputReady(), wait, suspend)) {
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedIOException("interrupted while waiting for input from " + a.remoteAddress());
            }
            switch (limit) {
                case 1:
                    throw lineTimedOut(a);
                case 2:
                    throw a.requestTimedOut();
                case 3:
                    throw deadlines.exceeded(a.remoteAddress());
                default:
                    throw a.readTimedOut();
            }
        }
    }

    private static SocketTimeoutException lineTimedOut(AsyncTransport a) {
        return new SocketTimeoutException("line from " + a.remoteAddress() + " not complete after "
                + a.config().lineTimeout().toMillis() + " ms (lineTimeout)");
    }

    /**
     * Waits for transport I/O {@code w}: suspends if {@code suspend} (mode {@code IO}: a cancelled
     * flow gets an {@link InterruptedIOException}, undeclared: the callers declare {@code
     * IOException}), else blocks. With the interrupt status set a suspending wait returns {@code
     * false} at once, so that the caller reports the interrupt. A wait with {@code suspend} false
     * runs under an uninstrumented frame inside a flow (instrumented call sites use the suspending
     * forms): it is a pinned wait, reported by {@link UninstrumentedWaits}.
     *
     * <p>It suspends in its own frame rather than through {@link #suspend}: every instrumented frame
     * on the way to a suspension is captured and restored once per wait, and reads wait once per
     * request.
     *
     * @return {@code true} if {@code w} completed, {@code false} on timeout or interrupt
     */
    private static boolean waitIo(Object w, long timeoutNanos, boolean suspend) {
        if (Waits.isDone(w)) {
            return true;
        }
        if (!suspend) {
            UninstrumentedWaits.onBlockingWait();
            return Waits.block(w, timeoutNanos);
        }
        if (Thread.currentThread().isInterrupted()) {
            return false;
        }
        FlowState f = FlowState.prepare(w, timeoutNanos, FlowState.IO);
        if (f == null) {
            return Waits.block(w, timeoutNanos);
        }
        Continuation.suspend();
        return f.afterResume();
    }

    private static long timeoutNanos(long timeout, TimeUnit unit) {
        long n = unit.toNanos(timeout);
        return n <= 0 ? 1 : n;
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}
