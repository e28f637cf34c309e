package dev.flow.mina;

/**
 * A snapshot of a {@link FlowServer}'s session counters. Every accepted session ends up in exactly one
 * of {@link #completed()}, {@link #closedByPeer()}, {@link #timedOut()}, {@link #failed()}, {@link
 * #stopped()} or {@link #rejected()}; until then it is {@link #running()} or {@link #queued()}.
 *
 * <p>Unlike the scheduler's {@link dev.flow.FlowStats#failed()}, which counts every flow that ended
 * with an exception, {@link #failed()} counts only sessions whose handler failed on its own: a peer
 * that resets or closes the connection while the handler reads or writes is {@link #closedByPeer()}.
 * Immutable.
 */
public final class SessionStats {

    private final long accepted;
    private final long running;
    private final long queued;
    private final long completed;
    private final long closedByPeer;
    private final long timedOut;
    private final long failed;
    private final long stopped;
    private final long rejected;
    private final long resets;
    private final long protocolErrors;
    private final long acceptFailures;

    SessionStats(long accepted, long running, long queued, long completed, long closedByPeer, long timedOut,
            long failed, long stopped, long rejected, long resets, long protocolErrors, long acceptFailures) {
        this.accepted = accepted;
        this.running = running;
        this.queued = queued;
        this.completed = completed;
        this.closedByPeer = closedByPeer;
        this.timedOut = timedOut;
        this.failed = failed;
        this.stopped = stopped;
        this.rejected = rejected;
        this.resets = resets;
        this.protocolErrors = protocolErrors;
        this.acceptFailures = acceptFailures;
    }

    /** Sessions accepted since the server started, including rejected ones. */
    public long accepted() {
        return accepted;
    }

    /** Sessions whose handler has started and not ended. */
    public long running() {
        return running;
    }

    /** Sessions waiting for a free slot under {@code maxSessions} ({@link FlowServer.Overflow#QUEUE}). */
    public long queued() {
        return queued;
    }

    /**
     * Sessions whose handler returned normally, without recording another outcome ({@link
     * dev.flow.Transport#recordOutcome(dev.flow.SessionOutcome)}).
     */
    public long completed() {
        return completed;
    }

    /**
     * Sessions whose handler ended with an {@link java.io.IOException} after the peer reset or closed
     * the connection, or returned after recording {@link dev.flow.SessionOutcome#CLOSED_BY_PEER}: the
     * peer's doing, not a handler failure; not reported.
     */
    public long closedByPeer() {
        return closedByPeer;
    }

    /**
     * Sessions whose handler ended with a {@link java.net.SocketTimeoutException}, or a failure caused by
     * one (an idle timeout reaches the handler as a failed connection): a read, line, idle or
     * write timeout of the session's {@code TransportConfig} or a read deadline expired; or whose handler
     * returned after recording {@link dev.flow.SessionOutcome#TIMED_OUT}. The limit doing its job; not
     * reported.
     */
    public long timedOut() {
        return timedOut;
    }

    /**
     * Sessions whose handler could not be created or ended with an exception of its own (a bug, or a
     * limit such as a too-long line); each is reported to the server's failure handler.
     */
    public long failed() {
        return failed;
    }

    /** Sessions ended because the server or its scheduler was closed while they ran or waited. */
    public long stopped() {
        return stopped;
    }

    /** Sessions closed at once because {@code maxSessions} were running ({@link FlowServer.Overflow#REJECT}). */
    public long rejected() {
        return rejected;
    }

    /**
     * Connections that failed with an I/O error, mostly peers that reset them (an event count, not an
     * outcome: the session then ends {@link #closedByPeer()} or as its handler does). Logged as a summary
     * line at most once per 10 s, never one line per connection.
     */
    public long resets() {
        return resets;
    }

    /**
     * Of the {@link #failed()} sessions, those whose handler failed on a peer's protocol error: a line
     * over the limit or input not in the charset, or whose handler returned after recording {@link
     * dev.flow.SessionOutcome#PROTOCOL_ERROR} (counted in {@link #failed()} too, never passed to the
     * failure handler). Logged as a summary line at most once per 10 s, instead of one warning per
     * session.
     */
    public long protocolErrors() {
        return protocolErrors;
    }

    /**
     * Accepts that failed because the process or the system was out of file descriptors (an event count,
     * no session); after each, the server stops accepting for 100 ms. Logged as a summary line at most
     * once per 10 s.
     */
    public long acceptFailures() {
        return acceptFailures;
    }

    @Override
    public String toString() {
        return "SessionStats[accepted=" + accepted + ", running=" + running + ", queued=" + queued
                + ", completed=" + completed + ", closedByPeer=" + closedByPeer + ", timedOut=" + timedOut + ", failed=" + failed
                + ", stopped=" + stopped + ", rejected=" + rejected + ", resets=" + resets
                + ", protocolErrors=" + protocolErrors + ", acceptFailures=" + acceptFailures + "]";
    }
}
