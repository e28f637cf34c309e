package dev.flow.mina;

/**
 * Where a session flow resumes when the input (or write completion) it waits for arrives on a MINA I/O
 * processor thread of its server or connector. Set with {@link FlowServer.Builder#dispatch(Dispatch)}
 * or {@link FlowConnector.Builder#dispatch(Dispatch, dev.flow.FlowScheduler)}; applies to TCP (in-VM
 * pipes have no I/O processor threads) and to continuation mode.
 */
public enum Dispatch {
    /**
     * The default: the I/O thread hands the flow to the scheduler's workers through its ready queue.
     * Handler code may compute, and may block where it cannot suspend (pinned waits), without holding
     * up other sessions; every wake-up costs a hand-off between threads.
     */
    WORKERS,
    /**
     * Event-loop style: the I/O thread that completed the flow's read resumes the flow itself, right
     * away, with no hand-off (flows still start on workers, and a sleep, a timeout or a future completed
     * elsewhere resumes them on workers). The trade-off: while a flow runs on an I/O thread, every other
     * session of that thread waits, so handler code that computes for long stalls them all; a wait that
     * cannot suspend there (a pinned wait, see {@code UnsuspendableFrameException}) is refused with an
     * exception naming its site instead of blocking the thread.
     */
    IO_THREADS
}
