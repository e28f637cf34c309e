package dev.flow.internal;

import java.lang.reflect.UndeclaredThrowableException;
import java.util.concurrent.Callable;

/**
 * The bottom frame of every continuation: calls the task and keeps its outcome, which the scheduler
 * reads through {@link #call()} once the continuation has ended. Only the scheduler holds the root
 * of a flow, so user code cannot complete a flow from the inside.
 *
 * <p>Each {@code ContinuationClassLoader} defines its own instrumented copy of this class, so it
 * must use only public members of other classes. Runs on a scheduler worker.
 */
public final class FlowRoot implements Runnable, Callable<Object> {

    private final FlowTask task;
    private Object value;
    private Throwable failure;

    /**
     * Creates the root for {@code task}.
     *
     * @param state the flow it runs as; part of the signature the instrumenter generates
     */
    public FlowRoot(FlowTask task, FlowState state) {
        this.task = task;
    }

    @Override
    public void run() {
        try {
            value = task.flow$call();
        } catch (Throwable t) {
            failure = t;
        }
    }

    /** Returns the task's value or throws its failure. */
    @Override
    public Object call() throws Exception {
        Throwable t = failure;
        if (t == null) {
            return value;
        }
        if (t instanceof Exception) {
            throw (Exception) t;
        }
        if (t instanceof Error) {
            throw (Error) t;
        }
        throw new UndeclaredThrowableException(t);
    }
}
