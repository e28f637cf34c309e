package dev.flow.internal;

/**
 * The bottom frame of every continuation: takes the task of the flow starting on this thread, calls
 * it and hands its outcome to the flow's state, where the scheduler reads it once the continuation
 * has ended. Stateless: one instance per loader ({@link #INSTANCE}) serves all its flows, so a flow
 * costs no root object, and its frame keeps only itself.
 *
 * <p>Each {@code ContinuationClassLoader} defines its own instrumented copy of this class, so it
 * must use only public members of other classes. Runs on a scheduler worker.
 */
public final class FlowRoot implements Runnable {

    /** The root of every flow whose task this loader defined; returned by the generated {@code flow$root}. */
    public static final FlowRoot INSTANCE = new FlowRoot();

    private FlowRoot() {
    }

    @Override
    public void run() {
        try {
            FlowState.taskReturned(FlowState.startingTask().flow$call());
        } catch (Throwable t) {
            FlowState.taskThrew(t);
        }
    }
}
