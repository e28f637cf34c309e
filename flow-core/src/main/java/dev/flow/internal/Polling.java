package dev.flow.internal;

import dev.flow.SuspendPolicy;
import dev.flow.spi.Awaitable;
import java.net.URL;
import java.net.URLConnection;
import java.nio.channels.SelectableChannel;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionService;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Phaser;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.StampedLock;

/**
 * Support for the suspendable forms of JDK primitives that offer no completion callback (blocking
 * queues and deques, latches, semaphores, stamped locks): the flow tries the non-blocking form ({@code poll},
 * {@code pollFirst}, {@code tryAcquire}, {@code getCount() == 0}, {@code Phaser.getPhase()}, {@code
 * StampedLock.tryReadLock()}) and suspends between attempts, first yielding the worker to
 * other ready flows three times, then sleeping 50 µs, doubling up to 1 ms. Also the report for
 * blocking calls that have no suspendable form. Stateless and thread-safe.
 */
public final class Polling {

    /** Completes as soon as a waiter registers: awaiting it puts the flow at the back of the ready queue. */
    public static final Awaitable YIELD = new Pause(true);
    /** Never completes: awaited with a timeout, it is a pause on the scheduler's timer. */
    public static final Awaitable PAUSE = new Pause(false);

    /** {@link #attempt}: {@code BlockingQueue.poll()}. */
    public static final int TAKE = 0;
    /** {@link #attempt}: {@code BlockingQueue.offer(element)}. */
    public static final int OFFER = 1;
    /** {@link #attempt}: {@code CountDownLatch.getCount() == 0}. */
    public static final int LATCH = 2;
    /** {@link #attempt}: {@code Semaphore.tryAcquire(n)}. */
    public static final int PERMITS = 3;
    /** {@link #attempt}: {@code Phaser.getPhase() != n}, giving the phase reached. */
    public static final int PHASE = 4;
    /** {@link #attempt}: {@code CompletionService.poll()}. */
    public static final int COMPLETION = 5;
    /** {@link #attempt}: {@code ExecutorService.isTerminated()}. */
    public static final int TERMINATED = 6;
    /** {@link #attempt}: {@code !Thread.isAlive()}. */
    public static final int ENDED = 7;
    /** {@link #attempt}: {@code BlockingDeque.pollFirst()}. */
    public static final int TAKE_FIRST = 8;
    /** {@link #attempt}: {@code BlockingDeque.pollLast()}. */
    public static final int TAKE_LAST = 9;
    /** {@link #attempt}: {@code BlockingDeque.offerFirst(element)}. */
    public static final int OFFER_FIRST = 10;
    /** {@link #attempt}: {@code BlockingDeque.offerLast(element)}. */
    public static final int OFFER_LAST = 11;
    /** {@link #attempt}: {@code StampedLock.tryReadLock()}, giving the stamp. */
    public static final int READ_LOCK = 12;
    /** {@link #attempt}: {@code StampedLock.tryWriteLock()}, giving the stamp. */
    public static final int WRITE_LOCK = 13;
    /** {@link #attempt}: {@code !Process.isAlive()}. */
    public static final int EXITED = 14;

    /** {@link #mode}: the flow may suspend. */
    public static final int SUSPEND = 0;
    /** {@link #mode}: no flow, or a flow that never suspends: the original call blocks, silently. */
    public static final int BLOCK = 1;
    /** {@link #mode}: a pinned flow: it may try without blocking, but if it must wait it blocks, reported. */
    public static final int PINNED = 2;
    /** Returned by a polling wait whose caller must make the original, blocking call. */
    public static final Object WOULD_BLOCK = new Object();

    private static final int YIELDS = 3;
    private static final long FIRST_PAUSE_NANOS = 50_000L;
    private static final long MAX_PAUSE_NANOS = 1_000_000L;
    /** How deep {@link #waitsUnderScanner(Object)} looks through decorators (a chain is a few deep). */
    private static final int MAX_DECORATORS = 64;

    private Polling() {
    }

    /**
     * The current flow's way of waiting for something not done: {@link #SUSPEND}, {@link #BLOCK} or
     * {@link #PINNED}. A flow pinned at a strict site is refused here, by site, whether or not it
     * would have to wait.
     *
     * @throws dev.flow.UnsuspendableFrameException if {@code f} is pinned at a strict site
     */
    public static int mode(FlowState f) {
        if (f == null) {
            return BLOCK;
        }
        int site = pinSite(f);
        if (site != Pins.NOT_PINNED) {
            if (Pins.isStrict(site)) {
                Pins.onPinnedAwait(site);
            }
            return PINNED;
        }
        return f.continuation == null || f.scheduler.policy().kind() == SuspendPolicy.Kind.NEVER ? BLOCK : SUSPEND;
    }

    /**
     * Whether a wait for something not done may suspend, given the flow's {@link #mode}: {@code false}
     * outside a flow, in a flow that never suspends, and in a pinned flow, whose pin it reports as the
     * wait would block.
     */
    public static boolean maySuspend(int mode) {
        if (mode == PINNED) {
            reportPinned();
        }
        return mode == SUSPEND;
    }

    /** Reports the current flow's pin as it is about to block: a warning once per site. */
    public static void reportPinned() {
        FlowState f = FlowState.current();
        if (f != null) {
            int site = pinSite(f);
            if (site != Pins.NOT_PINNED) {
                Pins.onPinnedAwait(site);
            }
        }
    }

    /** The site that pins {@code f}: its pin stretch's, else its innermost held lock's. */
    private static int pinSite(FlowState f) {
        return f.pinSite != Pins.NOT_PINNED ? f.pinSite : Locks.heldSite(f);
    }

    /**
     * One non-blocking attempt {@code op} on {@code target}: the element taken, the phase reached, or
     * {@link Boolean#TRUE} if it succeeded otherwise; {@code null} if it must be repeated.
     *
     * @param n the permits to acquire, or the phase to leave
     */
    @SuppressWarnings("unchecked")
    public static Object attempt(int op, Object target, Object element, int n) {
        switch (op) {
            case TAKE:
                return ((BlockingQueue<?>) target).poll();
            case OFFER:
                return ((BlockingQueue<Object>) target).offer(element) ? Boolean.TRUE : null;
            case LATCH:
                return ((CountDownLatch) target).getCount() == 0 ? Boolean.TRUE : null;
            case PERMITS:
                return ((Semaphore) target).tryAcquire(n) ? Boolean.TRUE : null;
            case PHASE:
                int phase = ((Phaser) target).getPhase();
                return phase != n ? Integer.valueOf(phase) : null;
            case COMPLETION:
                return ((CompletionService<?>) target).poll();
            case TERMINATED:
                return ((ExecutorService) target).isTerminated() ? Boolean.TRUE : null;
            case ENDED:
                return ((Thread) target).isAlive() ? null : Boolean.TRUE;
            case TAKE_FIRST:
                return ((BlockingDeque<?>) target).pollFirst();
            case TAKE_LAST:
                return ((BlockingDeque<?>) target).pollLast();
            case OFFER_FIRST:
                return ((BlockingDeque<Object>) target).offerFirst(element) ? Boolean.TRUE : null;
            case OFFER_LAST:
                return ((BlockingDeque<Object>) target).offerLast(element) ? Boolean.TRUE : null;
            case READ_LOCK:
                return stamp(((StampedLock) target).tryReadLock());
            case WRITE_LOCK:
                return stamp(((StampedLock) target).tryWriteLock());
            case EXITED:
                return ((Process) target).isAlive() ? null : Boolean.TRUE;
            default:
                throw new IllegalArgumentException("op: " + op + " (expected: one of Polling's operations)");
        }
    }

    private static Object stamp(long stamp) {
        return stamp != 0L ? Long.valueOf(stamp) : null;
    }

    /** How long to pause before attempt {@code attempt + 1}: {@code 0} (a yield) for the first three. */
    public static long pauseNanos(int attempt) {
        if (attempt < YIELDS) {
            return 0;
        }
        int doublings = attempt - YIELDS;
        return doublings >= 5 ? MAX_PAUSE_NANOS : Math.min(FIRST_PAUSE_NANOS << doublings, MAX_PAUSE_NANOS);
    }

    /**
     * Called before a blocking call without a suspendable form ({@code Object.wait}, {@code
     * Condition.await}, {@code CyclicBarrier.await}...) registered as pin site {@code site}: in a
     * flow it is reported like a pin (a warning once, or an {@code UnsuspendableFrameException} at a
     * strict site); elsewhere it does nothing.
     */
    public static void unsuspendable(int site) {
        if (FlowState.current() != null) {
            Pins.onPinnedAwait(site);
        }
    }

    /**
     * Called before a call that waits for a pipe's other end when {@code stream} is a pipe ({@code
     * PipedInputStream}/{@code PipedOutputStream}/{@code PipedReader}/{@code PipedWriter}: {@code readAllBytes},
     * {@code transferTo}, a {@code Reader}'s reads, a {@code Writer}'s writes...), or before a stream's read or
     * write when {@code stream} is another stream that waits inside the JDK ({@link #blocksInJdk(Class)}: a
     * plain JDK socket's, a child process's, a URL connection's; or {@code System.in}, whatever it is set to),
     * registered as pin site {@code site}: such a stream is reported there as {@link #unsuspendable(int)} does, whether or not this call would wait; any other receiver is left alone. A site
     * inside one of Flow's decorators ({@code BufferedReader} over the pipe, say) is reported at the loaded
     * code that called the decorator instead.
     */
    public static void piped(Object stream, int site) {
        if (stream != null && (WAITS_IN_JDK.get(stream.getClass()) || stream == System.in) && FlowState.current() != null) {
            report(site);
        }
    }

    /** Reports the blocking call at {@code site} in a flow: at the loaded code's call when the site is inside one of Flow's decorators. */
    private static void report(int site) {
        if (Pins.inFlowDecorator(site)) {
            UninstrumentedWaits.onBlockingCall(site); // inside a decorator loaded code made over the stream
        } else {
            Pins.onPinnedAwait(site);
        }
    }

    /**
     * Called before a name lookup that is no suspension point (a subclass's {@code super(host, port)} of {@code
     * InetSocketAddress}) registered as pin site {@code site}: in a flow it is reported as {@link
     * #unsuspendable(int)} does unless {@code host} provably needs no lookup ({@link #needsNoLookup(Object)}).
     */
    public static void lookup(Object host, int site) {
        if (FlowState.current() != null && !needsNoLookup(host)) {
            report(site);
        }
    }

    /**
     * Whether the JDK answers a lookup of {@code host} without asking a resolver: {@code null} or empty (the
     * loopback address), an IPv4 literal in dotted-decimal form ({@code 127.0.0.1}: four numbers 0..255), or an
     * IPv6 literal (a {@code :} in it, bracketed or not), which the JDK parses; any other string is a name,
     * looked up (and so are the JDK's other IPv4 forms, {@code 127.1}, which this rule does not parse).
     */
    public static boolean needsNoLookup(Object host) {
        if (host == null) {
            return true;
        }
        String h = host.toString();
        return h.isEmpty() || h.indexOf(':') >= 0 || isDottedQuad(h);
    }

    private static boolean isDottedQuad(String h) {
        int parts = 0;
        int i = 0;
        int n = h.length();
        while (i < n) {
            int value = 0;
            int digits = 0;
            while (i < n && h.charAt(i) >= '0' && h.charAt(i) <= '9') {
                value = value * 10 + (h.charAt(i++) - '0');
                if (++digits > 3) {
                    return false;
                }
            }
            if (digits == 0 || value > 255) {
                return false;
            }
            parts++;
            if (i < n && (h.charAt(i++) != '.' || i == n)) {
                return false;
            }
        }
        return parts == 4;
    }

    /**
     * Called before a call that connects a {@code URL} or {@code URLConnection} ({@code URL.openStream/getContent},
     * {@code URLConnection.connect/getInputStream/getOutputStream/getHeaderField...}, {@code
     * HttpURLConnection.getResponseCode...}) registered as pin site {@code site}: in a flow it is reported as
     * {@link #unsuspendable(int)} does unless the URL reads a local file ({@link #isLocal(URL)}).
     */
    public static void urlConnect(Object urlOrConnection, int site) {
        if (urlOrConnection == null || FlowState.current() == null) {
            return;
        }
        URL u = urlOrConnection instanceof URLConnection ? ((URLConnection) urlOrConnection).getURL() : (URL) urlOrConnection;
        if (!isLocal(u)) {
            report(site);
        }
    }

    /**
     * Whether the JDK reads {@code url} from a local file, never from the network: {@code file:} with no host
     * (or {@code localhost}; with another host the JDK tries FTP), {@code jrt:}, and {@code jar:} over such a
     * URL. Every other protocol ({@code http}, {@code https}, {@code ftp}, {@code mailto}, any other handler's)
     * may wait for a peer.
     */
    public static boolean isLocal(URL url) {
        switch (url.getProtocol()) {
            case "file":
                String host = url.getHost();
                return host == null || host.isEmpty() || host.equals("~") || host.equalsIgnoreCase("localhost");
            case "jrt":
                return true;
            case "jar":
                String spec = url.getFile();
                int bang = spec.indexOf("!/");
                try {
                    return bang > 0 && isLocal(new URL(spec.substring(0, bang)));
                } catch (java.net.MalformedURLException e) {
                    return false;
                }
            default:
                return false;
        }
    }

    /**
     * Called before a read, write, connect, {@code finishConnect}, accept, receive or send of a channel registered
     * as pin site {@code site}: in a flow it is reported as {@link #unsuspendable(int)} does when {@code channel}
     * is a selectable channel (a socket, server socket, datagram or pipe channel) in blocking mode, which waits
     * inside the JDK; a non-blocking channel returns at once, and a file channel does not wait for a peer.
     */
    public static void blockingChannel(Object channel, int site) {
        if (channel instanceof SelectableChannel && ((SelectableChannel) channel).isBlocking() && FlowState.current() != null) {
            report(site);
        }
    }

    /**
     * Called before a {@code java.util.Scanner} constructor registered as pin site {@code site} with its source
     * (a stream, {@code Readable} or channel): a Scanner reads its source inside the JDK on every {@code next*}
     * and {@code hasNext*}, where a flow cannot suspend, so in a flow a source that would wait there is reported
     * here, where the Scanner is made ({@link #waitsUnderScanner(Object)}). A Scanner made outside the scope is
     * not seen.
     */
    public static void scannerSource(Object source, int site) {
        if (source != null && FlowState.current() != null && waitsUnderScanner(source)) {
            report(site);
        }
    }

    /**
     * Whether a {@code Scanner} over {@code source} would wait inside the JDK's frames: the source, or what one of
     * Flow's input decorators ({@link FlowInputDecorator}: the buffered, data and pushback streams and the readers
     * loaded code made) reads from, at any depth, is a stream that waits inside the JDK ({@link
     * #blocksInJdk(Class)}), {@code System.in}, a blocking selectable channel, or a transport's input view (a
     * {@code Transport.inputStream()}, or a {@code FlowSocket}'s stream), which suspends when loaded code reads it
     * but blocks when the JDK does. A string, memory, a file, or a decorator over them does not wait.
     */
    static boolean waitsUnderScanner(Object source) {
        Object s = source;
        for (int depth = 0; s != null && depth < MAX_DECORATORS; depth++) {
            if (s instanceof TransportInputStream || WAITS_IN_JDK.get(s.getClass()) || s == System.in
                    || s instanceof SelectableChannel && ((SelectableChannel) s).isBlocking()) {
                return true;
            }
            s = s instanceof FlowInputDecorator ? ((FlowInputDecorator) s).flowSource() : null;
        }
        return false;
    }

    /** Whether {@code type} is one of the JDK's pipes or a subclass: its reads and writes wait inside the JDK for the other end. */
    public static boolean isPipe(Class<?> type) {
        return java.io.PipedInputStream.class.isAssignableFrom(type) || java.io.PipedOutputStream.class.isAssignableFrom(type)
                || java.io.PipedReader.class.isAssignableFrom(type) || java.io.PipedWriter.class.isAssignableFrom(type);
    }

    /**
     * Whether a stream of type {@code type} waits inside the JDK, out of Flow's reach: a pipe ({@link
     * #isPipe(Class)}), a plain JDK socket's stream ({@link #isJdkSocketStream(Class)}), a child process's
     * stream ({@link #isProcessStream(Class)}) or a URL connection's ({@link #isUrlStream(Class)}). Computed once
     * per class and cached.
     */
    public static boolean blocksInJdk(Class<?> type) {
        return WAITS_IN_JDK.get(type);
    }

    /** {@link #blocksInJdk(Class)}, computed once per class (a stream read or write in loaded code asks it each time). */
    private static final ClassValue<Boolean> WAITS_IN_JDK = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return isPipe(type) || isJdkSocketStream(type) || isProcessStream(type) || isUrlStream(type);
        }
    };

    /**
     * Whether {@code type} is a stream of a JDK URL connection to a peer: an {@code http:}/{@code https:}
     * connection's body streams ({@code HttpURLConnection.getInputStream()/getOutputStream()/getErrorStream()} in
     * streaming mode, and the JDK's chunked, keep-alive and metered streams under them) and an {@code ftp:}
     * connection's; an http request body buffered in memory (a {@code ByteArrayOutputStream}) is not.
     */
    public static boolean isUrlStream(Class<?> type) {
        String name = type.getName();
        return (name.startsWith("sun.net.www.protocol.http.") || name.startsWith("sun.net.www.protocol.https.")
                || name.startsWith("sun.net.www.protocol.ftp.") || name.startsWith("sun.net.www.http.")
                || name.startsWith("sun.net.ftp.") || name.equals("sun.net.www.MeteredStream")
                || name.startsWith("sun.net.Telnet")) && !java.io.ByteArrayOutputStream.class.isAssignableFrom(type);
    }

    /**
     * Whether {@code type} is a child process's stream ({@code Process.getInputStream()/getErrorStream()/
     * getOutputStream()} of a process the JDK started on Linux or macOS, {@code ProcessImpl}'s pipe streams):
     * its reads and writes wait inside the JDK for the child. A redirected stream ({@code
     * ProcessBuilder.Redirect}) is another class and never waits.
     */
    public static boolean isProcessStream(Class<?> type) {
        return type.getName().startsWith("java.lang.ProcessImpl$ProcessPipe");
    }

    /**
     * Whether {@code type} is the stream of a plain JDK socket ({@code Socket.getInputStream()/getOutputStream()}
     * of a {@code java.net.Socket} or of a {@code SocketChannel}'s socket adaptor; on JDK 21 and later also
     * {@code Channels.newInputStream/newOutputStream} of a {@code SocketChannel}): its reads and writes wait
     * in the JDK's socket implementation. Known by the JDK's own class names, the same on JDK 17 and 25;
     * Flow's {@code FlowSocket} streams are Flow's own classes and suspend instead.
     */
    public static boolean isJdkSocketStream(Class<?> type) {
        String name = type.getName();
        return name.startsWith("java.net.Socket$Socket") || name.startsWith("sun.nio.ch.SocketAdaptor$")
                || name.startsWith("sun.nio.ch.NioSocketImpl$") || name.equals("sun.nio.ch.SocketInputStream")
                || name.equals("sun.nio.ch.SocketOutputStream");
    }

    /** {@link #YIELD} and {@link #PAUSE}: never done; a yield runs its waiter at once, a pause never. */
    private static final class Pause implements Awaitable {
        private final boolean yield;

        Pause(boolean yield) {
            this.yield = yield;
        }

        @Override
        public boolean isDone() {
            return false;
        }

        @Override
        public void whenDone(Runnable action) {
            if (yield) {
                action.run();
            }
        }
    }
}
