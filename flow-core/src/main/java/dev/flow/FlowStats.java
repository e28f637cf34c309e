package dev.flow;

/**
 * A snapshot of a {@link FlowScheduler}'s counters. Gauges ({@link #active()}, {@link #running()},
 * {@link #suspended()}, {@link #queued()}) are back to zero when nothing is left to run.
 */
public final class FlowStats {

    private final long started;
    private final long completed;
    private final long failed;
    private final long resumed;
    private final long active;
    private final long running;
    private final long suspended;
    private final long queued;
    private final long workersAlive;
    private final long workerErrors;
    private final long outOfMemoryErrors;
    private final long pinnedHandOffs;
    private final long ioLoopHandOffs;

    FlowStats(long[] c) {
        this.started = c[0];
        this.completed = c[1];
        this.failed = c[2];
        this.resumed = c[3];
        this.active = c[4];
        this.running = c[5];
        this.suspended = c[6];
        this.queued = c[7];
        this.workersAlive = c[8];
        this.workerErrors = c[9];
        this.outOfMemoryErrors = c[10];
        this.pinnedHandOffs = c[11];
        this.ioLoopHandOffs = c[12];
    }

    /** Flows submitted so far. */
    public long started() {
        return started;
    }

    /** Flows that returned normally. */
    public long completed() {
        return completed;
    }

    /**
     * Flows that ended with an exception, whatever its cause: for server sessions this includes peers
     * that reset the connection; {@code FlowServer.stats()} tells those apart from handler failures.
     */
    public long failed() {
        return failed;
    }

    /** Times a suspended flow was resumed (equal to the number of suspensions once idle). */
    public long resumed() {
        return resumed;
    }

    /** Flows started and not yet ended. */
    public long active() {
        return active;
    }

    /** Flows executing on a worker right now. */
    public long running() {
        return running;
    }

    /** Flows suspended, waiting for an operation to complete. */
    public long suspended() {
        return suspended;
    }

    /** Flows ready to run, waiting for a worker. */
    public long queued() {
        return queued;
    }

    /** Worker threads alive: the configured number until the scheduler has been closed. */
    public long workersAlive() {
        return workersAlive;
    }

    /**
     * Unexpected errors the scheduler's threads survived outside any flow (each is logged); 0 unless
     * Flow has a bug or the heap ran out ({@link #outOfMemoryErrors()}).
     */
    public long workerErrors() {
        return workerErrors;
    }

    /**
     * {@link OutOfMemoryError}s seen on the scheduler's threads (workers, timer, sleeps, carriers): in a
     * flow, which then failed with it (also counted in {@link #failed()}), or outside any flow, which
     * the thread survived (also counted in {@link #workerErrors()}). The threads go on either way.
     */
    public long outOfMemoryErrors() {
        return outOfMemoryErrors;
    }

    /**
     * Times a worker about to block in a pinned wait (a wait that cannot suspend) handed its place to
     * another thread, so that the other flows kept every worker ({@link
     * FlowScheduler.Builder#maxPinnedThreads(int)}).
     */
    public long pinnedHandOffs() {
        return pinnedHandOffs;
    }

    /**
     * Times an I/O thread running one of this scheduler's flows ({@code Dispatch.ADAPTIVE}), about to
     * block in that flow's pinned wait, handed its loop, and so its other sessions, to another thread.
     */
    public long ioLoopHandOffs() {
        return ioLoopHandOffs;
    }

    /** Whether no flow is active, running, suspended or queued. */
    public boolean isIdle() {
        return active == 0 && running == 0 && suspended == 0 && queued == 0;
    }

    @Override
    public String toString() {
        return "FlowStats[started=" + started + ", completed=" + completed + ", failed=" + failed
                + ", resumed=" + resumed + ", active=" + active + ", running=" + running
                + ", suspended=" + suspended + ", queued=" + queued + ", workersAlive=" + workersAlive
                + ", workerErrors=" + workerErrors + ", outOfMemoryErrors=" + outOfMemoryErrors
                + ", pinnedHandOffs=" + pinnedHandOffs + ", ioLoopHandOffs=" + ioLoopHandOffs + "]";
    }
}
