package dev.flow.mina;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.mina.core.filterchain.IoFilterChain;
import org.apache.mina.core.service.IoConnector;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.core.session.IoSessionConfig;
import org.apache.mina.transport.socket.nio.NioSession;

/**
 * Reads a {@link MinaTransport}'s socket into its input from whichever thread needs the bytes: the
 * reading flow's own thread (a worker, a plain thread) when its input is empty, so that bytes already in
 * the kernel need no turn of the I/O thread and no hand-off from it, or the session's I/O thread when its
 * selector reports the socket readable (the flow is waiting). What a blocking socket's reader does: read
 * on its own thread, wait for the poller only when the kernel has nothing.
 *
 * <p><b>When.</b> As {@link DirectWriter}: only for a TCP {@link NioSession} whose filter chain holds no
 * filter but Flow's own {@link DirectWriter.Passive} ones (no TLS, no codec, no user filter: those see
 * every byte, through MINA's read), whose handler is Flow's {@link TransportIoHandler} and whose I/O
 * thread is a {@link FlowNioProcessors.FlowNioProcessor} (which reads through this reader; MINA's own
 * processor reads through the chain, which no direct read could exclude), and not after
 * {@link #disable()} (a TLS upgrade). The system property {@value #PROPERTY} (read once per transport,
 * when its session is created) chooses: {@code always} (a reader's thread tries the socket before every
 * wait), {@code adaptive} (see below) or {@code false} (every read is left to MINA's I/O thread and filter
 * chain). Unset, a connector's sessions read {@code always} and a server's do not read directly. A
 * client's read follows its own request: a peer on the same machine woken by that request often runs on
 * the writer's processor and answers before the writer reads (pgjdbc's selects, per connection: the reply
 * already there at nearly every wait after the first few, or at almost none; at 500 sessions, at 10 of a
 * session's 29 waits), which a blocking socket's reader and a virtual thread find by reading first too. A
 * server's read waits for the peer's next request: no gain was measured there ({@code adaptive}; bench/RESULTS.md,
 * "Reads from the flow's own thread" and "Direct reads for clients").
 *
 * <p><b>Adaptive.</b> A try that finds nothing costs a system call; one that finds bytes saves a
 * suspension and the I/O thread's turn that would have delivered them. An adaptive reader keeps a score:
 * a try that finds bytes adds {@value #HIT_CREDIT} (up to {@value #MAX_SCORE}), one that finds nothing
 * takes one off. While the score is above zero it tries before every wait, so it keeps trying while at
 * least one try in five ({@value #HIT_CREDIT} + 1) finds bytes; at zero it tries one wait in {@value
 * #PROBE_EVERY}, until a try finds bytes again. A new reader starts at {@value #HIT_CREDIT}.
 *
 * <p><b>MINA's read buffer.</b> MINA allocates a buffer of the session's read buffer size for each read
 * its I/O thread makes, also when this reader reads instead (into a buffer of its thread's) and leaves it
 * empty; so while the reader is enabled the session's read buffer size is set to its minimum, and it
 * is set back at {@link #disable()}.
 *
 * <p><b>Exclusion and order.</b> One read at a time per session: a reader takes the session's read flag,
 * reads once without blocking, hands the bytes to the transport (which appends them to its input) and
 * only then releases the flag, so bytes enter the input in the order the socket gave them; it wakes the
 * waiting reader after releasing the flag (an I/O thread may run the woken flow inline, and that flow
 * may read, or upgrade to TLS, which waits for a read running on another thread to finish). A reader that
 * finds the flag taken reads nothing: on the I/O thread the selector, level-triggered, reports the
 * socket again at its next selection if bytes remain; a flow goes on to wait for its input, which the
 * flag's holder is delivering.
 *
 * <p><b>The end of the stream</b> is never delivered here: a flow that reads it delivers nothing and
 * waits, and the I/O thread, which the socket's readability wakes, reads it again and MINA passes it
 * through the filter chain (so a server sees the peer's close). A failed read
 * (a reset) is handled where it happens, as the I/O thread handles it: the session closes and the failure
 * goes through the chain. Back-pressure stays the transport's: it does not ask for a read while its reads
 * are suspended (input above the high-water mark, input budget spent), and MINA does not select a
 * session whose reads are suspended. The bytes read count for idle detection as MINA's reads do.
 *
 * <p><b>Threads.</b> {@link #read} may be called by any thread, concurrently; {@link #disable()} by the
 * transport's user (a flow or plain thread) at a TLS upgrade.
 */
final class DirectReader {

    /** The system property that chooses when a reader's thread reads: {@code always}, {@code adaptive} or {@code false}. */
    static final String PROPERTY = "flow.mina.directReads";

    /** What a try that found bytes adds to an adaptive reader's score (a try that found nothing takes one off). */
    static final int HIT_CREDIT = 4;

    /** The highest score of an adaptive reader: how many tries in a row that find nothing it makes at most. */
    static final int MAX_SCORE = 16;

    /** An adaptive reader whose score is zero tries one wait in this many. */
    static final int PROBE_EVERY = 8;

    /** The most bytes one read takes: 16 KiB. */
    static final int READ_SIZE = 16 * 1024;

    /** Each thread's read buffer (direct: the JDK copies a heap buffer's reads through one anyway). */
    private static final ThreadLocal<ByteBuffer> SCRATCH = ThreadLocal.withInitial(
            () -> ByteBuffer.allocateDirect(READ_SIZE));

    private final NioSession session;
    private final SocketChannel channel;
    private final TransportIoHandler handler;
    private final MinaTransport transport;
    /** The thread reading the session now, or {@code null}: the read flag. */
    private final AtomicReference<Thread> reading = new AtomicReference<>();
    private volatile boolean enabled = true;
    /** When an adaptive reader tries, or {@code null} for {@code always}. */
    private final Tries tries;
    /** The session's read buffer size before this reader set it to the minimum; restored by {@link #disable()}. */
    private final int minaReadBufferSize;

    private DirectReader(NioSession session, SocketChannel channel, TransportIoHandler handler,
            MinaTransport transport, boolean adaptive) {
        this.session = session;
        this.transport = transport;
        this.channel = channel;
        this.handler = handler;
        this.tries = adaptive ? new Tries() : null;
        IoSessionConfig config = session.getConfig();
        this.minaReadBufferSize = config.getReadBufferSize();
        config.setReadBufferSize(Math.min(minaReadBufferSize, config.getMinReadBufferSize()));
    }

    /**
     * A direct reader for {@code transport}'s {@code session}, or {@code null} if its reads must go
     * through MINA's chain.
     *
     * @throws IllegalArgumentException if {@value #PROPERTY} is not {@code always}, {@code adaptive} or {@code false}
     */
    static DirectReader of(IoSession session, MinaTransport transport) {
        String mode = System.getProperty(PROPERTY);
        if (mode != null && !mode.equals("always") && !mode.equals("adaptive") && !mode.equals("false")) {
            throw new IllegalArgumentException(PROPERTY + ": " + mode + " (expected: always, adaptive or false)");
        }
        if (mode == null) {
            mode = session != null && session.getService() instanceof IoConnector ? "always" : "false";
        }
        if (!(session instanceof NioSession) || !(session.getHandler() instanceof TransportIoHandler)
                || mode.equals("false") || !FlowNioProcessors.FlowNioProcessor.readsThroughDirectReaders(session)) {
            return null;
        }
        IoFilterChain chain = session.getFilterChain();
        for (IoFilterChain.Entry e : chain.getAll()) {
            if (!(e.getFilter() instanceof DirectWriter.Passive)) {
                return null;
            }
        }
        Object channel = ((NioSession) session).getChannel();
        return channel instanceof SocketChannel
                ? new DirectReader((NioSession) session, (SocketChannel) channel,
                        (TransportIoHandler) session.getHandler(), transport, mode.equals("adaptive"))
                : null;
    }

    /**
     * The reader's own try before it waits (see the class comment): {@link #read()}, unless an adaptive
     * reader skips this one. The transport's one reader at a time.
     */
    void readBeforeWait() {
        if (tries == null) {
            read();
        } else if (tries.next()) {
            tries.found(read() > 0);
        }
    }

    /**
     * Reads once, without blocking, what the socket has (up to {@link #READ_SIZE} bytes) and hands it to
     * the transport; returns the number of bytes delivered, 0 if none (the kernel had none, another
     * thread is reading, direct reads are off, or the read failed: the session is then closing and the
     * failure went through its filter chain to the transport), or -1 if the read met the end of the
     * stream, which it does not deliver (see the class comment).
     */
    int read() {
        Thread current = Thread.currentThread();
        if (!enabled || !reading.compareAndSet(null, current)) {
            return 0;
        }
        int n;
        Signal wake = null;
        try {
            if (!enabled || session.isClosing()) {
                return 0;
            }
            ByteBuffer b = SCRATCH.get();
            b.clear();
            try {
                n = channel.read(b);
            } catch (IOException e) {
                // What Flow's I/O thread does with a failed read: the chain hears why, the session closes.
                // The failure first: closed from another thread than its I/O thread, the session's
                // sessionClosed may run there at once, and a reader woken by it would see an end of stream.
                session.getFilterChain().fireExceptionCaught(e);
                session.closeNow();
                return 0;
            }
            if (n > 0) {
                b.flip();
                long now = System.currentTimeMillis();
                session.increaseReadBytes(n, now);
                session.increaseReadMessages(now);
                wake = handler.receiveDirect(session, transport, b);
            }
        } finally {
            reading.set(null);
        }
        // After the flag: the flow this wakes may run right here (an I/O thread's inline run) and read.
        if (wake != null) {
            wake.complete();
        }
        return n;
    }

    /**
     * Leaves every later read to MINA's chain (a TLS filter is being added); returns once a direct read
     * running on another thread has delivered its bytes. A read running on this thread has delivered them
     * already: the flow upgrading runs inside it (an I/O thread that read the command resumed the flow).
     */
    void disable() {
        enabled = false;
        Thread current = Thread.currentThread();
        for (Thread t = reading.get(); t != null && t != current; t = reading.get()) {
            Thread.onSpinWait();
        }
        session.getConfig().setReadBufferSize(minaReadBufferSize);
    }

    /** Whether reads may still bypass MINA's chain. */
    boolean enabled() {
        return enabled;
    }

    /**
     * An adaptive reader's choice of the waits before which it tries the socket (see the class comment).
     * Not thread-safe: used by the transport's one reader at a time.
     */
    static final class Tries {
        private int score = HIT_CREDIT;
        private int skipped;

        /** Whether to try before this wait; if so, {@link #found(boolean)} must follow. */
        boolean next() {
            if (score == 0 && ++skipped < PROBE_EVERY) {
                return false;
            }
            skipped = 0;
            return true;
        }

        /** Records what the try {@link #next()} allowed found: bytes or nothing. */
        void found(boolean bytes) {
            if (bytes) {
                score = Math.min(MAX_SCORE, score + HIT_CREDIT);
            } else if (score > 0) {
                score--;
            }
        }
    }
}
