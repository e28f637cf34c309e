package dev.flow.jdk;

/**
 * The {@code lock} object of Flow's readers and writers: the lock the flow owns that their methods
 * take, and that an in-scope subclass's {@code synchronized (lock)} blocks take instead of the
 * monitor (the {@code ContinuationClassLoader} rewrites them), so a flow holding it may suspend. It
 * is re-entrant, as a monitor is. Thread-safe.
 */
public final class FlowMonitor {

    private final OwnedSync sync = new OwnedSync(false);

    FlowMonitor() {
    }

    /**
     * A new monitor, the {@code lock} of an in-scope direct subclass of {@code Reader} or {@code Writer} made
     * with the no-argument super constructor (whose lock would be the object itself).
     */
    public static Object create() {
        return new FlowMonitor();
    }

    /**
     * The {@code lock} of an in-scope direct subclass of {@code Reader} or {@code Writer} given {@code lock}
     * to its super constructor: {@code null} for {@code null} (the JDK's constructor then throws), else a new
     * monitor, which excludes this object's {@code synchronized (lock)} blocks from each other but not from
     * code that synchronizes on {@code lock} itself (as Flow's readers and writers have a monitor of their own).
     */
    public static Object of(Object lock) {
        return lock == null ? null : lock instanceof FlowMonitor ? lock : new FlowMonitor();
    }

    /** Takes {@code lock} (a {@link FlowMonitor}) for the current flow or thread, waiting if another holds it. */
    public static void enter(Object lock) {
        ((FlowMonitor) lock).take();
    }

    /** Releases one hold of {@code lock} taken by {@link #enter(Object)}; never throws, as a monitor exit in a handler must not. */
    public static void exit(Object lock) {
        ((FlowMonitor) lock).sync.release(OwnedSync.me(), false);
    }

    /** Takes the lock; returns the owner to pass to {@link #release(Object)}. */
    Object take() {
        return sync.enter();
    }

    /** Releases a hold taken by {@link #take()}. */
    void release(Object owner) {
        sync.exit(owner);
    }
}
