package dev.flow.mina;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.mina.core.filterchain.IoFilterChain;
import org.apache.mina.core.session.IoSession;
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
 * when its session is created) turns direct reads on: {@code always} (a reader's thread tries the socket
 * before every wait) or {@code adaptive} (see below); {@code false}, the default, leaves every read to
 * MINA's I/O thread and filter chain. Off by default because it did not measurably pay in lock-step loads
 * (bench/RESULTS.md, "Reads from the flow's own thread").
 *
 * <p><b>Adaptive.</b> In a lock-step exchange (a request, then its reply) the reply is rarely in the
 * kernel yet when the reader asks for it, and the try costs a system call that finds nothing. With {@code
 * adaptive}, after {@value #MISSES} tries in a row that found nothing a reader tries only one wait in
 * {@value #PROBE_EVERY}, until a try finds bytes again.
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

    /** Tries in a row that found nothing after which an adaptive reader probes only now and then. */
    static final int MISSES = 2;

    /** An adaptive reader past {@link #MISSES} tries one wait in this many. */
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
    private final boolean adaptive;
    /** Tries in a row by the reader's thread that found nothing, and waits since; that thread only. */
    private int misses;
    private int skipped;

    private DirectReader(NioSession session, SocketChannel channel, TransportIoHandler handler,
            MinaTransport transport, boolean adaptive) {
        this.session = session;
        this.transport = transport;
        this.channel = channel;
        this.handler = handler;
        this.adaptive = adaptive;
    }

    /**
     * A direct reader for {@code transport}'s {@code session}, or {@code null} if its reads must go
     * through MINA's chain.
     *
     * @throws IllegalArgumentException if {@value #PROPERTY} is not {@code always}, {@code adaptive} or {@code false}
     */
    static DirectReader of(IoSession session, MinaTransport transport) {
        String mode = System.getProperty(PROPERTY, "false");
        if (!mode.equals("always") && !mode.equals("adaptive") && !mode.equals("false")) {
            throw new IllegalArgumentException(PROPERTY + ": " + mode + " (expected: always, adaptive or false)");
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
        if (adaptive && misses >= MISSES && ++skipped < PROBE_EVERY) {
            return;
        }
        skipped = 0;
        if (read() > 0) {
            misses = 0;
        } else if (misses < MISSES) {
            misses++;
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
    }

    /** Whether reads may still bypass MINA's chain. */
    boolean enabled() {
        return enabled;
    }
}
