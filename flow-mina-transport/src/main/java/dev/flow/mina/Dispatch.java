package dev.flow.mina;

/**
 * Where a session flow resumes when the input (or write completion) it waits for arrives on a MINA I/O
 * processor thread of its server or connector. Set with {@link FlowServer.Builder#dispatch(Dispatch)}
 * or {@link FlowConnector.Builder#dispatch(Dispatch)}; applies to TCP (in-VM pipes have no I/O processor
 * threads) and to continuation mode.
 */
public enum Dispatch {
    /**
     * The I/O thread hands the flow to the scheduler's workers through its ready queue. Handler code may
     * compute, and may block where it cannot suspend (pinned waits), without
     * holding up other sessions; every wake-up costs a hand-off between threads.
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
    IO_THREADS,
    /**
     * The default of servers and connectors: {@link #IO_THREADS} for the sessions it is safe for, {@link
     * #WORKERS} for the others, decided per session. A flow woken by its own input resumes on the I/O
     * thread that read it only if
     * <ul>
     *   <li>it has never blocked in a pinned wait (a wait that cannot suspend; a handler instrumented
     *       <em>strict</em> has its known sites refused wherever it runs, a <em>lenient</em> one blocks
     *       there). Should a flow's wait pin while it runs on the I/O thread, the thread hands its loop, and so its
     *       other sessions, to another thread (an idle one, or a new one named after it with {@code
     *       -standin-N}) while the flow blocks, and takes it back once the flow's run is over, as a
     *       {@code ForkJoinPool} compensates a blocked worker: the other sessions keep being served, and
     *       the awaited input, read by the other thread, reaches the blocked flow. That flow then resumes
     *       on workers for good (and while 256 threads of one I/O thread are blocked or idle that way,
     *       every lenient flow does); and</li>
     *   <li>its runs are short: the first two (its start and one wake-up) run on workers, and each must
     *       take at most a millisecond. A second run longer than that within 16 runs (a request that
     *       computes, a blocking call outside the instrumented scope) sends the session back to the
     *       workers until twice as many short runs in a row (at most 64) have followed; a long run alone
     *       is forgiven (most are the thread preempted, or a collection), and 127 short runs in a row
     *       halve the streak asked for again.</li>
     * </ul>
     * So handler code that computes for long holds up the other sessions of its I/O thread for two runs,
     * then runs on workers; short request-response handlers get {@code IO_THREADS}' single thread
     * per wake-up. In sync mode ({@code threadPerSession()}) it means {@link #WORKERS}.
     */
    ADAPTIVE
}
