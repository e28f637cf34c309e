package dev.flow.mina;

import dev.flow.spi.Awaitable;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;

/**
 * A one-shot {@link Awaitable} completed by the transport when input, end of stream or a failure
 * arrives.
 *
 * <p>Thread-safe. {@link #complete()} runs the registered actions on the completing thread, usually
 * a MINA I/O processor; the actions are Flow's wake-ups or latch count-downs and never block.
 */
final class Signal implements Awaitable {

    private static final Logger LOG = dev.flow.internal.Slf4j.logger(Signal.class);

    /** An already completed signal. */
    static final Signal DONE = new Signal(true);

    private volatile boolean done;
    /** A {@link Runnable}, a {@code List<Runnable>} or {@code null}; guarded by {@code this}. */
    private Object actions;

    Signal() {
        this(false);
    }

    private Signal(boolean done) {
        this.done = done;
    }

    @Override
    public boolean isDone() {
        return done;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void whenDone(Runnable action) {
        if (!done) {
            synchronized (this) {
                if (!done) {
                    Object a = actions;
                    if (a == null) {
                        actions = action;
                    } else if (a instanceof Runnable) {
                        List<Runnable> list = new ArrayList<>(2);
                        list.add((Runnable) a);
                        list.add(action);
                        actions = list;
                    } else {
                        ((List<Runnable>) a).add(action);
                    }
                    return;
                }
            }
        }
        action.run();
    }

    /** Completes the signal and runs the actions registered so far; later calls do nothing. */
    @SuppressWarnings("unchecked")
    void complete() {
        Object a;
        synchronized (this) {
            if (done) {
                return;
            }
            done = true;
            a = actions;
            actions = null;
        }
        if (a instanceof Runnable) {
            run((Runnable) a);
        } else if (a != null) {
            for (Runnable r : (List<Runnable>) a) {
                run(r);
            }
        }
    }

    /** Whether an action waits for this signal (a flow's wake-up registered on it); for tests. */
    synchronized boolean hasActions() {
        return actions != null;
    }

    private static void run(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            LOG.warn("input-ready action {} failed", r, e);
        }
    }

    @Override
    public String toString() {
        return "Signal[" + (done ? "done" : "pending") + "]";
    }
}
