package dev.flow.mina;

import dev.flow.spi.AwaitableAdapter;
import org.apache.mina.core.future.IoFuture;

/**
 * Lets Flow wait on MINA {@link IoFuture}s ({@code ConnectFuture}, {@code WriteFuture}, {@code
 * CloseFuture}, {@code ReadFuture}): a flow suspended on one is resumed when MINA completes it.
 *
 * <p>Registered as a {@link java.util.ServiceLoader} service of {@link AwaitableAdapter}; not meant to
 * be called directly. Stateless and thread-safe. {@link #whenDone(Object, Runnable)} registers an
 * {@code IoFutureListener}, which MINA runs on the completing thread (often an I/O processor) or at
 * once if the future is done; the action must not block.
 */
public final class MinaIoFutureAdapter implements AwaitableAdapter {

    /** Creates the adapter; called by {@link java.util.ServiceLoader}. */
    public MinaIoFutureAdapter() {
    }

    /** Returns {@code IoFuture.class}. */
    @Override
    public Class<?> type() {
        return IoFuture.class;
    }

    /** Returns {@link IoFuture#isDone()}; does not allocate. */
    @Override
    public boolean isDone(Object future) {
        return ((IoFuture) future).isDone();
    }

    /** Runs {@code action} once when the future completes, through {@link IoFuture#addListener}. */
    @Override
    public void whenDone(Object future, Runnable action) {
        ((IoFuture) future).addListener(f -> action.run());
    }
}
