package dev.flow.mina;

import dev.flow.Transport;
import dev.flow.spi.AsyncConnector;
import java.io.IOException;
import java.net.SocketAddress;
import org.apache.mina.core.future.ConnectFuture;

/**
 * A {@link dev.flow.Connector} to one address through a {@link FlowConnector}. In continuation mode
 * Flow runs {@code connect()} as {@link #connectAsync()}, a wait on the attempt, then {@link
 * #transportOf(Object)}, so the flow holds no thread while it connects.
 *
 * <p>Thread-safe and stateless apart from the address; {@link #connect()} blocks the calling thread
 * and must not be called on a MINA I/O processor thread.
 */
final class MinaConnector implements AsyncConnector {

    private final FlowConnector owner;
    private final SocketAddress address;

    MinaConnector(FlowConnector owner, SocketAddress address) {
        this.owner = owner;
        this.address = address;
    }

    @Override
    public Transport connect() throws IOException {
        return owner.connect(address);
    }

    /** Starts connecting; the attempt is an {@link dev.flow.spi.Awaitable} over MINA's ConnectFuture. */
    @Override
    public Object connectAsync() {
        return new IoFutureAwaitable(owner.connectAsync(address));
    }

    @Override
    public Transport transportOf(Object attempt) throws IOException {
        if (attempt instanceof IoFutureAwaitable && ((IoFutureAwaitable) attempt).future() instanceof ConnectFuture) {
            return owner.transportOf((ConnectFuture) ((IoFutureAwaitable) attempt).future());
        }
        if (attempt instanceof ConnectFuture) {
            return owner.transportOf((ConnectFuture) attempt);
        }
        throw new IllegalArgumentException("attempt: " + attempt + " (expected: a value returned by connectAsync())");
    }

    /** Cancels the attempt, and closes its session if it connected anyway. */
    @Override
    public void abandon(Object attempt) {
        if (attempt instanceof IoFutureAwaitable && ((IoFutureAwaitable) attempt).future() instanceof ConnectFuture) {
            FlowConnector.abandon((ConnectFuture) ((IoFutureAwaitable) attempt).future());
        }
    }

    @Override
    public String toString() {
        return "Connector[" + address + "]";
    }
}
