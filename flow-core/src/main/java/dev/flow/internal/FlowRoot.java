package dev.flow.internal;

/**
 * The bottom frame of every continuation: calls the task and reports its outcome.
 *
 * <p>Each {@code ContinuationClassLoader} defines its own instrumented copy of this class, so it
 * must use only public members of other classes. Runs on a scheduler worker.
 */
public final class FlowRoot implements Runnable {

    private final FlowTask task;
    private final FlowState state;

    /** Creates the root for {@code task} running as {@code state}. */
    public FlowRoot(FlowTask task, FlowState state) {
        this.task = task;
        this.state = state;
    }

    @Override
    public void run() {
        Object result;
        try {
            result = task.flow$call();
        } catch (Throwable t) {
            state.fail(t);
            return;
        }
        state.succeed(result);
    }
}
