package dev.flow.bench.support;

import dev.flow.spi.Awaitable;

/**
 * An {@link Awaitable} that is never done when checked but completes the moment a callback is
 * registered: a flow awaiting it always suspends and is re-queued at once by the worker that
 * suspended it. One await on it measures capture + restore + one trip through the ready queue.
 * Stateless and thread-safe; one instance can be shared.
 */
public final class Yield implements Awaitable {

    /** The shared instance. */
    public static final Yield INSTANCE = new Yield();

    private Yield() {
    }

    @Override
    public boolean isDone() {
        return false;
    }

    @Override
    public void whenDone(Runnable action) {
        action.run();
    }
}
