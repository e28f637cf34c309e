package dev.flow.mina;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.filterchain.IoFilter;
import org.apache.mina.core.filterchain.IoFilterChain;
import org.apache.mina.transport.socket.nio.NioSession;

/**
 * Writes a {@link MinaTransport}'s bytes straight to its socket from the writing thread, without MINA's
 * write queue and I/O thread, when nothing of the session is queued or being written: what a blocking
 * socket's {@code write} does when the kernel's send buffer has room. A write then costs no hand-off to
 * the I/O thread, no selector wake-up, and a {@code flush()} after it does not wait. Bytes the socket does
 * not take at once, and every write while others are queued, go through MINA's queue as before, in order.
 *
 * <p><b>When.</b> Only for a TCP {@link NioSession} whose filter chain holds no filter but Flow's own
 * {@link Passive} ones (no TLS, no user filter: those see every write), and not after {@link #disable()}
 * (a TLS upgrade). The chain is looked at once, when the transport is created: a filter added to the live
 * session by hand later must come with {@link #disable()}. Setting the system property {@value #PROPERTY}
 * to {@code false} (read once per transport) sends every write through MINA's queue, to compare.
 *
 * <p><b>Exclusion.</b> The caller writes only once its previous write has completed (MINA's I/O thread is
 * then done with the session's current request). The writer takes the session's "scheduled for flush"
 * flag, the flag MINA's own flush requests set before queueing the session for its I/O thread, so no
 * flush of this session starts while it writes; it writes only if the write queue is empty, then clears
 * the flag and hands the session to its processor if anything was queued meanwhile (or a wake-up was
 * asked for, {@link #wakeUpWanted()}): a flush request that found the flag taken is not lost.
 *
 * <p><b>Threads.</b> {@link #tryWrite} is called by the transport's one writer at a time (a flow on a
 * worker or on an I/O thread, or a plain thread); {@link #disable()} and {@link #wakeUpWanted()} by any
 * thread.
 */
final class DirectWriter {

    /** The system property that turns direct writes off: {@code false}; default {@code true}. */
    static final String PROPERTY = "flow.mina.directWrites";

    /** A filter that neither sees nor changes writes, so that writes may bypass the chain. */
    interface Passive extends IoFilter {
    }

    private final NioSession session;
    private final SocketChannel channel;
    private volatile boolean enabled = true;
    private volatile boolean wakeUpWanted;

    private DirectWriter(NioSession session, SocketChannel channel) {
        this.session = session;
        this.channel = channel;
    }

    /** A direct writer for {@code session}, or {@code null} if its writes must go through MINA's queue. */
    static DirectWriter of(org.apache.mina.core.session.IoSession session) {
        if (!(session instanceof NioSession) || !Boolean.parseBoolean(System.getProperty(PROPERTY, "true"))) {
            return null;
        }
        IoFilterChain chain = session.getFilterChain();
        for (IoFilterChain.Entry e : chain.getAll()) {
            if (!(e.getFilter() instanceof Passive)) {
                return null;
            }
        }
        Object channel = ((NioSession) session).getChannel();
        return channel instanceof SocketChannel ? new DirectWriter((NioSession) session, (SocketChannel) channel) : null;
    }

    /**
     * Writes what the socket takes of {@code b} at once, if nothing of the session is queued; returns
     * whether all of {@code b} was written. If not, the caller queues the rest ({@code b} from its
     * position), which MINA writes after what was written here. A failed write writes nothing here: the
     * queued write meets the same failure and MINA reports it as for any write.
     */
    boolean tryWrite(IoBuffer b) {
        if (!enabled || session.isWriteSuspended() || !session.getWriteRequestQueue().isEmpty(session)
                || !session.setScheduledForFlush(true)) {
            return false;
        }
        try {
            if (!session.getWriteRequestQueue().isEmpty(session) || session.isClosing()) {
                return false;
            }
            int n;
            try {
                n = channel.write(b.buf());
            } catch (IOException e) {
                return false;
            }
            if (n > 0) {
                // MINA's accounting of a write it makes: written bytes, last write time (idle detection),
                // the service's statistics; the scheduled bytes it lowers were never raised here.
                session.increaseScheduledWriteBytes(n);
                session.increaseWrittenBytes(n, System.currentTimeMillis());
            }
            return !b.hasRemaining();
        } finally {
            session.unscheduledForFlush();
            if (wakeUpWanted || !session.getWriteRequestQueue().isEmpty(session)) {
                wakeUpWanted = false;
                session.getProcessor().flush(session);
            }
        }
    }

    /**
     * Asks the writer to hand the session to its processor when it next releases the flush flag: called
     * before a flush request made only to wake the processor up, which finds the flag taken while a
     * direct write runs.
     */
    void wakeUpWanted() {
        wakeUpWanted = true;
    }

    /** Sends every later write through MINA's queue (a filter that sees writes is being added). */
    void disable() {
        enabled = false;
    }

    /** Whether writes may still go straight to the socket. */
    boolean enabled() {
        return enabled;
    }
}
