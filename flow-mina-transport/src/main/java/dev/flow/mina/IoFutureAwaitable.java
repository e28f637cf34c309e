package dev.flow.mina;

import dev.flow.spi.Awaitable;
import org.apache.mina.core.future.IoFuture;

/**
 * An {@link Awaitable} view of a MINA {@link IoFuture}, such as the {@code WriteFuture} of one
 * write.
 *
 * <p>Thread-safe. {@link #whenDone(Runnable)} registers an {@code IoFutureListener}; MINA runs it on
 * the thread that completes the future (an I/O processor), or at once if the future is done.
 */
final class IoFutureAwaitable implements Awaitable {

    private final IoFuture future;

    IoFutureAwaitable(IoFuture future) {
        this.future = future;
    }

    /** The wrapped future. */
    IoFuture future() {
        return future;
    }

    @Override
    public boolean isDone() {
        return future.isDone();
    }

    @Override
    public void whenDone(Runnable action) {
        future.addListener(f -> action.run());
    }

    @Override
    public String toString() {
        return "IoFutureAwaitable[" + future + "]";
    }
}
