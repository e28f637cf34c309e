package dev.flow.bench.support;

import dev.flow.spi.Awaitable;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A re-armable one-shot {@link Awaitable} for ping-pong benchmarks: the awaiting side {@link
 * #reset() re-arms} it after each completion it has observed, before it lets the other side
 * complete it again, so each round is a separate one-shot completion. Allocation-free.
 */
public final class Baton implements Awaitable {

    private static final Object DONE = new Object();

    /** {@code null}: armed, nobody waiting; {@link #DONE}; or the waiting callback. */
    private final AtomicReference<Object> state = new AtomicReference<>();

    @Override
    public boolean isDone() {
        return state.get() == DONE;
    }

    @Override
    public void whenDone(Runnable action) {
        if (!state.compareAndSet(null, action)) {
            action.run(); // already DONE
        }
    }

    /**
     * Whether a callback is registered: the awaiting flow has suspended and its worker has handed
     * the wake-up callback over. The pinging side waits for this before it completes the round, so
     * that every round is a real suspend/resume and not the already-done fast path.
     */
    public boolean hasWaiter() {
        return state.get() instanceof Runnable;
    }

    /**
     * Spins until {@link #hasWaiter()}, up to {@code timeoutMillis}; for set-up.
     *
     * @return whether a waiter arrived
     */
    public boolean awaitWaiter(long timeoutMillis) {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (!hasWaiter()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.yield();
        }
        return true;
    }

    /** Completes this round; runs the registered callback, if any, on the calling thread. */
    public void complete() {
        Object prev = state.getAndSet(DONE);
        if (prev instanceof Runnable) {
            ((Runnable) prev).run();
        }
    }

    /** Re-arms; only the awaiting side calls this, after it has seen the completion. */
    public void reset() {
        state.set(null);
    }
}
