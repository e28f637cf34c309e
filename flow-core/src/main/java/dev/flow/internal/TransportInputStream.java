package dev.flow.internal;

import dev.flow.Transport;
import dev.flow.spi.AsyncTransport;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * The {@link InputStream} view of a {@link Transport} ({@link Transport#inputStream()}).
 *
 * <p>Calls made directly from code loaded through the {@code ContinuationClassLoader} are
 * rewritten to {@link Awaits}' stream forms, which suspend; the methods here are what every other
 * caller gets (a plain thread, or a JDK decorator such as {@code DataInputStream} inside a flow):
 * they block, and in a flow they pin ({@link UninstrumentedWaits#onViewCall()}: a strict site is
 * refused whether or not the call would wait). Used by one flow or thread at a time, like the transport.
 */
public final class TransportInputStream extends InputStream {

    /** Set by {@link #under(InputStream)} on the current thread while it asks a decorator for {@code available()}. */
    private static final ThreadLocal<TransportInputStream[]> PROBE = new ThreadLocal<>();

    private final Transport transport;

    /** Creates the view of {@code transport}. */
    public TransportInputStream(Transport transport) {
        this.transport = Objects.requireNonNull(transport, "transport");
    }

    /** The transport this stream reads. */
    public Transport transport() {
        return transport;
    }

    @Override
    public int read() throws IOException {
        UninstrumentedWaits.onViewCall();
        byte[] one = new byte[1];
        int n = transport.read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        UninstrumentedWaits.onViewCall();
        return transport.read(b, off, len);
    }

    /** Skips up to {@code n} bytes: the buffered ones without waiting, else waits for some. */
    @Override
    public long skip(long n) throws IOException {
        if (n <= 0) {
            return 0;
        }
        UninstrumentedWaits.onViewCall();
        int buffered = transport.available();
        if (buffered > 0) {
            long k = Math.min(n, buffered);
            transport.skip(k);
            return k;
        }
        return super.skip(n);
    }

    /**
     * {@link Transport#available()} ({@link AsyncTransport#streamAvailable()} for an async transport, which may
     * throw as the stream it stands for would): never blocks.
     */
    @Override
    public int available() throws IOException {
        TransportInputStream[] probe = PROBE.get();
        if (probe != null) {
            probe[0] = this;
        }
        return transport instanceof AsyncTransport ? ((AsyncTransport) transport).streamAvailable() : transport.available();
    }

    /**
     * The view that {@code decorator} reads from, found by asking it for {@code available()} (which JDK
     * decorators pass down to the stream they wrap), or {@code null} if none answered. The decorator's
     * own {@code available()} may throw.
     */
    public static TransportInputStream under(InputStream decorator) throws IOException {
        TransportInputStream[] found = new TransportInputStream[1];
        PROBE.set(found);
        try {
            decorator.available();
        } finally {
            PROBE.remove();
        }
        return found[0];
    }

    /** Closes the transport. */
    @Override
    public void close() throws IOException {
        transport.close();
    }

    @Override
    public String toString() {
        return "InputStream[" + transport + "]";
    }
}
