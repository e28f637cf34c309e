package dev.flow.internal;

/**
 * An event loop running on an adaptive carrier (an I/O thread of {@code Dispatch.ADAPTIVE}) that can go
 * on on another thread while a flow the carrier runs inline blocks in a pinned wait, as a {@code
 * ForkJoinPool} compensates a managed blocker. Bound to its thread with {@link
 * SchedulerCore#bindCarrierLoop}.
 *
 * <p><b>Threads.</b> {@link #mayHandOff()} and {@link #handOff()} are called by the thread that runs the
 * loop, in a flow it runs inline; {@link #reclaim()} by that same thread once the run is over.
 */
public interface CarrierLoop {

    /**
     * Whether {@link #handOff()} would succeed now: the calling thread runs the loop, the loop is where
     * it may go on elsewhere, and a thread can take it. An adaptive carrier runs a flow whose waits may
     * pin only while it holds; during that run only the thread's own hand-off, or the loop's end (a
     * dispose), turns it false.
     */
    boolean mayHandOff();

    /**
     * Lets another thread run the loop from its next turn while the calling thread blocks; returns
     * {@code false}, changing nothing, if it cannot (the loop is ending, or too many threads already
     * wait). The calling thread must call {@link #reclaim()} before it goes back to the loop's code.
     */
    boolean handOff();

    /** Returns once the calling thread, which handed the loop off, runs it again (or the loop has ended). */
    void reclaim();
}
