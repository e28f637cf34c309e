package dev.flow.mina;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Constructor;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.service.IoProcessor;
import org.apache.mina.core.service.IoService;
import org.apache.mina.core.session.AbstractIoSession;
import org.apache.mina.core.session.AttributeKey;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.transport.socket.nio.NioSession;
import org.apache.mina.transport.socket.nio.NioSocketAcceptor;

/**
 * MINA's TCP acceptor, with a back-off when the process runs out of file descriptors. MINA's own
 * acceptor logs an ERROR with a stack trace and sleeps 50 ms on every failed accept ("Too many open
 * files"), twenty lines a second for as long as the descriptors are gone, and leaks the accepted
 * channel if creating its session fails. This one stops selecting for accepts for {@link #BACKOFF}
 * (the pending connections wait in the kernel's accept queue), counts each failure in an {@link
 * EventLog} counter (so at most one line per interval), then accepts again; it closes an accepted
 * channel whose session cannot be created.
 *
 * <p><b>Bounded accept.</b> MINA's acceptor accepts as fast as the kernel hands out connections and
 * queues each new session on an I/O processor, whose loop registers every queued session in one turn
 * before it serves the sessions it has: under a connection flood, thousands of sessions wait there,
 * costing heap and stalling established sessions. This one counts the sessions it accepted that have
 * not yet {@linkplain #started started} (their server calls {@link #started} when the handler starts,
 * the session is queued, or it ends); while {@code maxStarting} of them wait, it stops selecting for
 * accepts (the connections wait in the kernel's accept queue) until half of them have started.
 *
 * <p><b>First byte.</b> Given {@link FirstByteRule} (a server whose clients speak first), an accepted
 * connection waits on this acceptor's selector until its first byte arrives, and only then is its MINA
 * session made and queued on an I/O processor: a connection that resets or closes before sending
 * costs the I/O threads nothing. A connection is read once as it is accepted (under a flood its bytes
 * or its reset are usually there by then: it is decided without a turn of the selector), and again
 * each time the selector reports it readable. The bytes of the read that finds some (at most {@link
 * #PROBE_BYTES}) are handed to the session when it opens ({@link #deliverFirstBytes}); a read that
 * finds nothing leaves the connection waiting. One that sends nothing within the rule's timeout is closed; one
 * accepted while the rule's {@link FirstByteRule#admits} says no is closed at once; {@link
 * #closeWaiting()} closes those left when the server stops. Each is reported to the rule before it is
 * closed, so a peer that sees the close finds it counted. A session
 * made this way counts as {@linkplain #started starting} too, but is made even while accepts are
 * paused by that bound: the waiting connections are bounded by the rule.
 *
 * <p><b>Threads.</b> {@link #started}, {@link #startingSessions()}, {@link #startingSessionsPeak()},
 * {@link #waitingForFirstByte()} and {@link #closeWaiting()} may be called on any thread; the rest, but
 * the constructor, runs on MINA's acceptor thread.
 */
final class FlowSocketAcceptor extends NioSocketAcceptor {

    /** How long accepting pauses after an accept failed for lack of descriptors: 100 ms. */
    static final Duration BACKOFF = Duration.ofMillis(100);

    /**
     * While accepts are paused by the bound on starting sessions, how often the acceptor looks again
     * without being woken (sessions that closed unseen are then dropped from the count): 10 ms.
     */
    static final Duration FULL_RECHECK = Duration.ofMillis(10);

    /**
     * With the first-byte rule, the most connections accepted at once when the server channel is
     * selected (MINA accepts one per select): 64.
     */
    static final int ACCEPTS_PER_SELECT = 64;

    /**
     * With the first-byte rule, the most bytes read from a connection before its session is made (they
     * are handed to the session): 2048, MINA's default read buffer.
     */
    static final int PROBE_BYTES = 2048;

    /** The session attribute holding the bytes read before the session was made (see {@link #deliverFirstBytes}). */
    private static final AttributeKey FIRST_BYTES = new AttributeKey(FlowSocketAcceptor.class, "firstBytes");

    /** MINA's session constructor (its class is package-private), or {@code null} if out of reach. */
    private static final MethodHandle NEW_SESSION = sessionConstructor();

    private final EventLog.Counter outOfDescriptors;
    private final EventLog.Counter failedSessions;
    /** Sessions accepted and not yet {@linkplain #started started}; any thread. */
    private final Set<NioSession> starting = ConcurrentHashMap.newKeySet();
    /** The most sessions {@link #starting} held at once; written by the acceptor thread only. */
    private volatile int startingPeak;
    /** Server keys whose accepts are paused; acceptor thread only. */
    private final List<SelectionKey> paused = new ArrayList<>();
    /** Whether accepts are paused after a failure for lack of descriptors, until {@link #resumeAt}; acceptor thread only. */
    private boolean backingOff;
    private long resumeAt;
    /** Whether accepts are paused because {@link #maxStarting} sessions are starting; written by the acceptor thread. */
    private volatile boolean full;
    /** Whether a {@link #started} call has woken the acceptor since {@link #full} was last set. */
    private final AtomicBoolean wakeSent = new AtomicBoolean();

    /** The I/O processors the sessions go to. */
    private final IoProcessor<NioSession> processor;
    /** The first-byte rule, or {@code null}: sessions are made at accept. */
    private final FirstByteRule firstByte;
    /** Connections waiting for their first byte; whoever removes one owns it. Any thread. */
    private final Set<Waiting> waiting = ConcurrentHashMap.newKeySet();
    /**
     * The same connections in accept order, so by deadline; one leaves when its session is made or it
     * is closed here (one closed by {@link #closeWaiting()} stays until it comes first). Acceptor thread only.
     */
    private final Set<Waiting> byDeadline = new LinkedHashSet<>();
    /** The buffer a waiting connection's first read goes into; acceptor thread only. */
    private final ByteBuffer probe = ByteBuffer.allocateDirect(PROBE_BYTES);
    /** How waiting connections are read. */
    private volatile ProbeReads probeReads = SocketChannel::read;
    /** Wake-ups of waiting connections whose read found nothing; written by the acceptor thread only. */
    private volatile long emptyWakeups;

    /** At most this many sessions are {@link #starting} at once. */
    private final int maxStarting;
    /** Accepts paused by {@link #maxStarting} resume once this many sessions or fewer are starting. */
    private final int resumeBelow;

    /**
     * An acceptor whose sessions go to {@code processor}, with at most {@code maxStarting} sessions
     * accepted and not yet started at once; failed accepts for lack of descriptors count in {@code
     * outOfDescriptors}, channels whose session could not be created in {@code failedSessions}.
     */
    FlowSocketAcceptor(IoProcessor<NioSession> processor, int maxStarting, EventLog.Counter outOfDescriptors,
            EventLog.Counter failedSessions) {
        this(processor, maxStarting, outOfDescriptors, failedSessions, null);
    }

    /**
     * As above; with {@code firstByte} not {@code null}, accepted connections wait for their first
     * byte before their session is made, under that rule.
     */
    FlowSocketAcceptor(IoProcessor<NioSession> processor, int maxStarting, EventLog.Counter outOfDescriptors,
            EventLog.Counter failedSessions, FirstByteRule firstByte) {
        super(processor);
        this.processor = processor;
        this.firstByte = firstByte;
        if (maxStarting < 1) {
            throw new IllegalArgumentException("maxStarting: " + maxStarting + " (expected: > 0)");
        }
        this.maxStarting = maxStarting;
        this.resumeBelow = maxStarting / 2;
        this.outOfDescriptors = outOfDescriptors;
        this.failedSessions = failedSessions;
    }

    private static MethodHandle sessionConstructor() {
        try {
            Class<?> type = Class.forName("org.apache.mina.transport.socket.nio.NioSocketSession", false,
                    NioSocketAcceptor.class.getClassLoader());
            Constructor<?> c = type.getConstructor(IoService.class, IoProcessor.class, SocketChannel.class);
            c.setAccessible(true);
            return MethodHandles.lookup().unreflectConstructor(c);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Selects; while accepts are paused, no longer than until the back-off ends or {@link
     * #FULL_RECHECK} passes, and resumes them when neither the back-off nor the bound holds them.
     * While connections wait for their first byte, no longer than until the first one's deadline;
     * then serves them ({@link #serveWaiting}).
     */
    @Override
    protected int select() throws Exception {
        if (!paused.isEmpty()) {
            resumeIfDue();
        }
        if (paused.isEmpty() && byDeadline.isEmpty()) {
            return serveWaiting(super.select());
        }
        long waitMillis = paused.isEmpty() ? Long.MAX_VALUE : full ? FULL_RECHECK.toMillis() : Long.MAX_VALUE;
        if (backingOff) {
            waitMillis = Math.min(waitMillis, Math.max(1, TimeUnit.NANOSECONDS.toMillis(resumeAt - System.nanoTime())));
        }
        if (!byDeadline.isEmpty()) {
            Waiting first = byDeadline.iterator().next();
            waitMillis = Math.min(waitMillis, Math.max(1, TimeUnit.NANOSECONDS.toMillis(first.deadline - System.nanoTime()) + 1));
        }
        int selected = selector.select(waitMillis);
        resumeIfDue();
        return serveWaiting(selected);
    }

    /**
     * With the first-byte rule: takes the selected connections waiting for their first byte out of
     * the selected keys, makes the sessions of those whose byte arrived, closes those that ended
     * before it, then those past their deadline; returns how many selected keys are left for MINA
     * (server channels ready to accept).
     */
    private int serveWaiting(int selected) {
        if (firstByte == null) {
            return selected;
        }
        Set<SelectionKey> keys = selector.selectedKeys();
        if (selected > 0) {
            for (Iterator<SelectionKey> i = keys.iterator(); i.hasNext(); ) {
                SelectionKey k = i.next();
                if (k.attachment() instanceof Waiting) {
                    i.remove();
                    firstByteReady(k, (Waiting) k.attachment());
                }
            }
        }
        long now = System.nanoTime();
        for (Iterator<Waiting> i = byDeadline.iterator(); i.hasNext(); ) {
            Waiting w = i.next();
            if (waiting.contains(w) && now - w.deadline < 0) {
                break;
            }
            i.remove();
            if (waiting.remove(w)) {
                firstByte.timedOut(remote(w.channel));
                closeQuietly(w.channel);
            }
        }
        return keys.size();
    }

    /** {@code w}'s channel is readable: {@linkplain #firstRead reads} it; a read that finds nothing is counted. */
    private void firstByteReady(SelectionKey key, Waiting w) {
        if (!firstRead(w, key)) {
            emptyWakeups++;
        }
    }

    /**
     * Reads what {@code w}'s channel has into the probe. Bytes: its session is made and they are handed
     * to it ({@link #FIRST_BYTES}); the end of the stream or a reset: it is closed and counted; in both
     * cases {@code key} (if any) is cancelled and this returns {@code true}. Nothing: it goes on
     * waiting, and this returns {@code false}. One read decides, so no byte can arrive between a check
     * and the read that consumes it.
     */
    private boolean firstRead(Waiting w, SelectionKey key) {
        SocketChannel ch = w.channel;
        int n;
        IOException reset = null;
        try {
            probe.clear();
            n = probeReads.read(ch, probe);
        } catch (IOException e) {
            n = -1;
            reset = e;
        }
        if (n == 0) {
            return false;
        }
        byDeadline.remove(w);
        if (!waiting.remove(w)) {
            return true;
        }
        if (key != null) {
            key.cancel();
        }
        if (n < 0) {
            if (reset != null) {
                firstByte.reset(remote(ch), reset);
            } else {
                firstByte.closedByPeer();
            }
            closeQuietly(ch);
            return true;
        }
        probe.flip();
        byte[] first = new byte[probe.remaining()];
        probe.get(first);
        try {
            NioSession session = (NioSession) NEW_SESSION.invoke(this, processor, ch);
            initSession(session, null, null);
            session.setAttribute(FIRST_BYTES, IoBuffer.wrap(first));
            addStarting(session);
            session.getProcessor().add(session);
        } catch (Throwable e) {
            closeQuietly(ch);
            if (e instanceof Error) {
                throw (Error) e;
            }
            failedSessions.record(ch, e);
        }
        return true;
    }

    /**
     * Hands {@code session} the bytes its connection sent before the session was made (read on the
     * acceptor: {@link #firstRead}), through its whole filter chain, as if its processor had read
     * them; does nothing for a session without such bytes. Called on the session's I/O thread when the
     * session opens, before its handler may start, so no later read can overtake them.
     */
    static void deliverFirstBytes(IoSession session) {
        Object first = session.removeAttribute(FIRST_BYTES);
        if (first instanceof IoBuffer) {
            IoBuffer bytes = (IoBuffer) first;
            if (session instanceof AbstractIoSession) {
                ((AbstractIoSession) session).increaseReadBytes(bytes.remaining(), System.currentTimeMillis());
            }
            session.getFilterChain().fireMessageReceived(bytes);
        }
    }

    /** How many times a waiting connection was reported readable and its read found nothing (for tests). */
    long emptyWakeups() {
        return emptyWakeups;
    }

    /** Reads the waiting connections' probes through {@code reads} from now on (for tests). */
    void probeReads(ProbeReads reads) {
        this.probeReads = reads;
    }

    /** How the acceptor reads a waiting connection: {@link SocketChannel#read(ByteBuffer)}, but in tests. */
    @FunctionalInterface
    interface ProbeReads {
        /** Reads from {@code ch} into {@code into}, as {@link SocketChannel#read(ByteBuffer)}. */
        int read(SocketChannel ch, ByteBuffer into) throws IOException;
    }

    /** The peer's address of {@code ch}, or {@code null} if it is gone. */
    private static Object remote(SocketChannel ch) {
        try {
            return ch.getRemoteAddress();
        } catch (IOException e) {
            return null;
        }
    }

    private static void closeQuietly(SocketChannel ch) {
        try {
            ch.close();
        } catch (IOException e) {
            // closing is all there is to do
        }
    }

    /** The number of accepted connections waiting for their first byte. */
    int waitingForFirstByte() {
        return waiting.size();
    }

    /**
     * Closes every connection waiting for its first byte, reporting each as stopped; called when the
     * server stops, after it stopped accepting. Any thread.
     */
    void closeWaiting() {
        if (firstByte == null) {
            return;
        }
        for (Iterator<Waiting> i = waiting.iterator(); i.hasNext(); ) {
            Waiting w = i.next();
            if (waiting.remove(w)) {
                firstByte.stopped();
                closeQuietly(w.channel);
            }
        }
    }

    /** Closes the connections still waiting, then MINA's selector. */
    @Override
    protected void destroy() throws Exception {
        closeWaiting();
        super.destroy();
    }

    /** Ends the back-off once due and the bound once half the starting sessions have started; then accepts again. */
    private void resumeIfDue() {
        if (backingOff && System.nanoTime() - resumeAt >= 0) {
            backingOff = false;
        }
        if (full && (starting.size() <= resumeBelow || pruned() <= resumeBelow)) {
            full = false;
        }
        if (!backingOff && !full) {
            for (SelectionKey k : paused) {
                if (k.isValid()) {
                    k.interestOps(k.interestOps() | SelectionKey.OP_ACCEPT);
                }
            }
            paused.clear();
        }
    }

    /** Stops selecting {@code key} for accepts until {@link #resumeIfDue} resumes it. */
    private void pause(SelectionKey key) {
        key.interestOps(key.interestOps() & ~SelectionKey.OP_ACCEPT);
        if (!paused.contains(key)) {
            paused.add(key);
        }
    }

    /**
     * Drops the sessions that closed before they were started (a session whose registration failed is
     * closed and destroyed without an event) and returns how many are left.
     */
    private int pruned() {
        starting.removeIf(s -> s.isClosing() || !s.getChannel().isOpen());
        return starting.size();
    }

    /**
     * Accepts one connection as MINA does, unless {@code maxStarting} sessions are starting: then pauses
     * accepts on {@code handle} until half of them have started, and returns {@code null}. On a failure
     * for lack of descriptors pauses accepts on {@code handle} for {@link #BACKOFF} and returns {@code null}.
     */
    @Override
    protected NioSession accept(IoProcessor<NioSession> processor, ServerSocketChannel handle) throws Exception {
        SelectionKey key = handle == null ? null : handle.keyFor(selector);
        if (key == null || !key.isValid() || !key.isAcceptable()) {
            return null;
        }
        if (starting.size() >= maxStarting && pruned() >= maxStarting) {
            wakeSent.set(false);
            full = true;
            pause(key);
            return null;
        }
        NioSession session = NEW_SESSION == null ? super.accept(processor, handle) : acceptChannel(processor, handle, key);
        if (session != null) {
            addStarting(session);
        }
        return session;
    }

    /** Counts {@code session} as {@link #starting}. */
    private void addStarting(NioSession session) {
        starting.add(session);
        int n = starting.size();
        if (n > startingPeak) {
            startingPeak = n;
        }
    }

    private NioSession acceptChannel(IoProcessor<NioSession> processor, ServerSocketChannel handle, SelectionKey key)
            throws Exception {
        SocketChannel channel = acceptOne(handle, key);
        if (channel == null) {
            return null;
        }
        if (firstByte != null) {
            // MINA accepts once per select; a waiting connection costs no session, so take a batch
            for (int n = 0; channel != null; ) {
                await(channel);
                channel = ++n < ACCEPTS_PER_SELECT ? acceptOne(handle, key) : null;
            }
            return null;
        }
        try {
            return (NioSession) NEW_SESSION.invoke(this, processor, channel);
        } catch (Throwable e) {
            try {
                channel.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (e instanceof Error) {
                throw (Error) e;
            }
            failedSessions.record(channel, e);
            return null;
        }
    }

    /**
     * Accepts one connection from {@code handle}, or none ({@code null}) if none is pending; on a
     * failure for lack of descriptors pauses accepts on {@code key} for {@link #BACKOFF} and returns
     * {@code null}.
     */
    private SocketChannel acceptOne(ServerSocketChannel handle, SelectionKey key) throws IOException {
        try {
            return handle.accept();
        } catch (IOException e) {
            if (!outOfDescriptors(e)) {
                throw e;
            }
            pause(key);
            backingOff = true;
            resumeAt = System.nanoTime() + BACKOFF.toNanos();
            outOfDescriptors.record(null, e.getMessage());
            return null;
        }
    }

    /**
     * Decides {@code channel} by a first read at once, and registers it to wait for its first byte only
     * if that read finds nothing: under a flood the bytes of a good connection, or a reset, have usually
     * arrived while it waited in the accept queue, and then neither a registration nor a turn of the
     * selector is spent on it. Unless the rule does not admit one more waiting connection: then closes
     * it at once.
     */
    private void await(SocketChannel channel) {
        if (!firstByte.admits(waiting.size())) {
            firstByte.rejected();
            closeQuietly(channel);
            return;
        }
        Waiting w = new Waiting(channel, System.nanoTime() + firstByte.timeoutNanos());
        try {
            channel.configureBlocking(false);
            waiting.add(w);
            if (firstRead(w, null)) {
                return;
            }
            channel.register(selector, SelectionKey.OP_READ, w);
            byDeadline.add(w);
        } catch (IOException | RuntimeException e) {
            if (waiting.remove(w)) {
                closeQuietly(channel);
                failedSessions.record(channel, e);
            }
        }
    }

    /** An accepted connection waiting for its first byte, closed at {@link #deadline} ({@link System#nanoTime}). */
    private static final class Waiting {
        final SocketChannel channel;
        final long deadline;

        Waiting(SocketChannel channel, long deadline) {
            this.channel = channel;
            this.deadline = deadline;
        }
    }

    /**
     * The first-byte rule of a server whose clients speak first: how long a connection may wait for
     * its first byte, how many may wait, and where what happens to them is counted. Its methods are
     * called on the acceptor thread, but {@link #stopped()} on the thread that stops the server.
     */
    interface FirstByteRule {
        /** How long an accepted connection may wait for its first byte, in nanoseconds. */
        long timeoutNanos();

        /** Whether one more connection may wait, {@code waiting} waiting already. */
        boolean admits(int waiting);

        /** A connection was closed because it sent nothing within {@link #timeoutNanos()}. */
        void timedOut(Object remote);

        /** A connection was reset (or broken) by its peer before its first byte. */
        void reset(Object remote, Object cause);

        /** A connection was closed by its peer before its first byte. */
        void closedByPeer();

        /** A connection was closed at once because {@link #admits} said no. */
        void rejected();

        /** A connection waiting for its first byte was closed because the server stopped. */
        void stopped();
    }

    /**
     * Notes that {@code session}, accepted by this acceptor, no longer waits to start: its handler was
     * started or queued, or the session ended. Any thread; a second call does nothing. Wakes the
     * acceptor if this ends a pause of accepts.
     */
    void started(IoSession session) {
        if (starting.remove(session) && full && starting.size() <= resumeBelow && wakeSent.compareAndSet(false, true)) {
            selector.wakeup();
        }
    }

    /** Whether accepts are paused because {@code maxStarting} sessions are starting (for tests). */
    boolean acceptsPaused() {
        return full;
    }

    /** The number of sessions accepted and not yet {@linkplain #started started}. */
    int startingSessions() {
        return starting.size();
    }

    /** The most sessions that were accepted and not yet started at once, since the acceptor was created. */
    int startingSessionsPeak() {
        return startingPeak;
    }

    /** Whether {@code e} says the process (EMFILE) or the system (ENFILE) is out of file descriptors. */
    static boolean outOfDescriptors(IOException e) {
        String m = e.getMessage();
        return m != null && m.startsWith("Too many open files");
    }
}
