package dev.flow.internal;

/**
 * The JFR side of {@link FlowEvents}: loaded only once {@code jdk.jfr} is known to be readable, and only
 * where a pin or a refusal happens. Thread-safe: the open pinned wait is a thread-local.
 */
final class JfrEvents {

    private static final ThreadLocal<PinnedEvent> OPEN = new ThreadLocal<>();

    private JfrEvents() {
    }

    /** Begins a pinned wait at {@code site}; {@code true} if one more wait is now open on some thread. */
    static boolean beginPinned(Pins.Site site) {
        PinnedEvent e = new PinnedEvent();
        if (!e.isEnabled()) {
            return false;
        }
        PinnedEvent previous = OPEN.get();
        e.site = site.frame();
        e.reason = site.reasonText();
        e.begin();
        OPEN.set(e);
        if (previous != null) {
            commit(previous);
            return false;
        }
        return true;
    }

    /** Ends the current thread's open pinned wait; {@code true} if there was one. */
    static boolean endPinned() {
        PinnedEvent e = OPEN.get();
        if (e == null) {
            return false;
        }
        OPEN.remove();
        commit(e);
        return true;
    }

    private static void commit(PinnedEvent e) {
        e.end();
        if (e.shouldCommit()) {
            e.commit();
        }
    }

    static void refused(String site, String reason) {
        RefusedEvent e = new RefusedEvent();
        if (e.isEnabled()) {
            e.site = site;
            e.reason = reason;
            e.commit();
        }
    }
}
