package dev.flow.mina;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Constructor;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.mina.core.service.IoProcessor;
import org.apache.mina.core.service.IoService;
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
 * <p><b>Threads.</b> {@link #started}, {@link #startingSessions()} and {@link #startingSessionsPeak()} may be
 * called on any thread; the rest, but the constructor, runs on MINA's acceptor thread.
 */
final class FlowSocketAcceptor extends NioSocketAcceptor {

    /** How long accepting pauses after an accept failed for lack of descriptors: 100 ms. */
    static final Duration BACKOFF = Duration.ofMillis(100);

    /**
     * While accepts are paused by the bound on starting sessions, how often the acceptor looks again
     * without being woken (sessions that closed unseen are then dropped from the count): 10 ms.
     */
    static final Duration FULL_RECHECK = Duration.ofMillis(10);

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
        super(processor);
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
     */
    @Override
    protected int select() throws Exception {
        if (!paused.isEmpty()) {
            resumeIfDue();
        }
        if (paused.isEmpty()) {
            return super.select();
        }
        long waitMillis = full ? FULL_RECHECK.toMillis() : Long.MAX_VALUE;
        if (backingOff) {
            waitMillis = Math.min(waitMillis, Math.max(1, TimeUnit.NANOSECONDS.toMillis(resumeAt - System.nanoTime())));
        }
        int selected = selector.select(waitMillis);
        resumeIfDue();
        return selected;
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
            starting.add(session);
            int n = starting.size();
            if (n > startingPeak) {
                startingPeak = n;
            }
        }
        return session;
    }

    private NioSession acceptChannel(IoProcessor<NioSession> processor, ServerSocketChannel handle, SelectionKey key)
            throws Exception {
        SocketChannel channel;
        try {
            channel = handle.accept();
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
        if (channel == null) {
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
     * Notes that {@code session}, accepted by this acceptor, no longer waits to start: its handler was
     * started or queued, or the session ended. Any thread; a second call does nothing. Wakes the
     * acceptor if this ends a pause of accepts.
     */
    void started(IoSession session) {
        if (starting.remove(session) && full && starting.size() <= resumeBelow && wakeSent.compareAndSet(false, true)) {
            selector.wakeup();
        }
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
