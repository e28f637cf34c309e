package dev.flow.internal;

/**
 * Added by the {@code ContinuationClassLoader} to instrumented classes whose {@code call()} or
 * {@code run()} can suspend: the entry of a flow. Not for application code.
 */
public interface FlowTask {

    /** Runs the task's body in its suspendable form. */
    Object flow$call() throws Exception;

    /** Returns the instrumented root runnable that starts this task inside a continuation. */
    Runnable flow$root(FlowState state);
}
