package dev.flow.internal;

import dev.flow.Transport;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

/**
 * The {@link OutputStream} view of a {@link Transport} ({@link Transport#outputStream()}): writes
 * go to {@link Transport#write}, {@code flush()} is {@link Transport#flush()}, {@code close()}
 * closes the transport.
 *
 * <p>Suspends and blocks like {@link TransportInputStream}. Each {@code write(int)} is a transport
 * write of one byte; write arrays. Used by one flow or thread at a time, like the transport.
 */
public final class TransportOutputStream extends OutputStream {

    private final Transport transport;

    /** Creates the view of {@code transport}. */
    public TransportOutputStream(Transport transport) {
        this.transport = Objects.requireNonNull(transport, "transport");
    }

    /** The transport this stream writes. */
    public Transport transport() {
        return transport;
    }

    @Override
    public void write(int b) throws IOException {
        UninstrumentedWaits.onViewCall();
        transport.write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        UninstrumentedWaits.onViewCall();
        transport.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
        UninstrumentedWaits.onViewCall();
        transport.flush();
    }

    /** Closes the transport. */
    @Override
    public void close() throws IOException {
        transport.close();
    }

    @Override
    public String toString() {
        return "OutputStream[" + transport + "]";
    }
}
