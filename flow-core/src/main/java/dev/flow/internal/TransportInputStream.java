package dev.flow.internal;

import dev.flow.Transport;
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

    /** {@link Transport#available()}: never blocks. */
    @Override
    public int available() {
        return transport.available();
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
