package dev.flow.mina;

import dev.flow.FlowScheduler;

/** The three ways a {@link FlowServer} runs its handlers, for tests that must hold in each. */
enum ServerMode {
    /** A thread per session. */
    SYNC,
    /** Flows resumed on the scheduler's workers. */
    WORKERS,
    /** Flows woken by their input resumed on the I/O thread that read it. */
    IO_THREADS;

    /** A builder in this mode; {@code scheduler} is used by the continuation modes. */
    FlowServer.Builder builder(FlowScheduler scheduler) {
        switch (this) {
            case SYNC:
                return FlowServer.builder().threadPerSession();
            case WORKERS:
                return FlowServer.builder().scheduler(scheduler).dispatch(Dispatch.WORKERS);
            default:
                return FlowServer.builder().scheduler(scheduler).dispatch(Dispatch.IO_THREADS);
        }
    }
}
