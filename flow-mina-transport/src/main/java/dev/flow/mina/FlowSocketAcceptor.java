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
import java.util.concurrent.TimeUnit;
import org.apache.mina.core.service.IoProcessor;
import org.apache.mina.core.service.IoService;
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
 * <p><b>Threads.</b> Everything but the constructor runs on MINA's acceptor thread.
 */
final class FlowSocketAcceptor extends NioSocketAcceptor {

    /** How long accepting pauses after an accept failed for lack of descriptors: 100 ms. */
    static final Duration BACKOFF = Duration.ofMillis(100);

    /** MINA's session constructor (its class is package-private), or {@code null} if out of reach. */
    private static final MethodHandle NEW_SESSION = sessionConstructor();

    private final EventLog.Counter outOfDescriptors;
    private final EventLog.Counter failedSessions;
    /** Server keys whose accepts are paused; acceptor thread only. */
    private final List<SelectionKey> paused = new ArrayList<>();
    private long resumeAt;

    /**
     * An acceptor whose sessions go to {@code processor}; failed accepts for lack of descriptors count
     * in {@code outOfDescriptors}, channels whose session could not be created in {@code failedSessions}.
     */
    FlowSocketAcceptor(IoProcessor<NioSession> processor, EventLog.Counter outOfDescriptors,
            EventLog.Counter failedSessions) {
        super(processor);
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

    /** Selects; while accepts are paused, no longer than until they resume, and resumes them then. */
    @Override
    protected int select() throws Exception {
        if (paused.isEmpty()) {
            return super.select();
        }
        long left = resumeAt - System.nanoTime();
        int selected = left > 0 ? selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left))) : selector.selectNow();
        if (System.nanoTime() - resumeAt >= 0) {
            for (SelectionKey k : paused) {
                if (k.isValid()) {
                    k.interestOps(k.interestOps() | SelectionKey.OP_ACCEPT);
                }
            }
            paused.clear();
        }
        return selected;
    }

    /**
     * Accepts one connection as MINA does; on a failure for lack of descriptors pauses accepts on
     * {@code handle} for {@link #BACKOFF} and returns {@code null}.
     */
    @Override
    protected NioSession accept(IoProcessor<NioSession> processor, ServerSocketChannel handle) throws Exception {
        if (NEW_SESSION == null) {
            return super.accept(processor, handle);
        }
        SelectionKey key = handle == null ? null : handle.keyFor(selector);
        if (key == null || !key.isValid() || !key.isAcceptable()) {
            return null;
        }
        SocketChannel channel;
        try {
            channel = handle.accept();
        } catch (IOException e) {
            if (!outOfDescriptors(e)) {
                throw e;
            }
            key.interestOps(key.interestOps() & ~SelectionKey.OP_ACCEPT);
            paused.add(key);
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

    /** Whether {@code e} says the process (EMFILE) or the system (ENFILE) is out of file descriptors. */
    static boolean outOfDescriptors(IOException e) {
        String m = e.getMessage();
        return m != null && m.startsWith("Too many open files");
    }
}
