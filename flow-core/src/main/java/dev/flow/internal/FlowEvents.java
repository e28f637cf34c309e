package dev.flow.internal;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Flow's JFR events, {@code dev.flow.Pinned} (a wait that blocked a worker) and {@code dev.flow.Refused}
 * (a strict refusal), so that a pinned flow shows in JDK Mission Control as {@code jdk.VirtualThreadPinned}
 * does.
 *
 * <p>Called only where Flow already detects a pin or a refusal, never on an await's fast path. The JFR
 * classes are touched only when the {@code jdk.jfr} module is present and readable, and nothing is computed
 * for an event that is not enabled. A pinned wait begins when Flow finds that it must block (where it logs
 * its warning) and ends where the blocked call returns to Flow: Flow's own blocking wait (a future, a
 * transport, a sleep) returning, the pinned stretch ending (the {@code synchronized} block or the bracket
 * around a JDK callback), the flow's next wait, or the flow leaving its worker; the event is kept when it
 * lasted at least its threshold (20 ms by default, as {@code jdk.VirtualThreadPinned}).
 *
 * <p>Thread-safe: a pinned wait is per thread, the thread its flow blocks.
 */
public final class FlowEvents {

    private static final boolean AVAILABLE = jfrReadable();
    /** Pinned waits begun and not yet ended, over all threads: 0 unless a recording enables {@code dev.flow.Pinned}. */
    private static final AtomicInteger OPEN = new AtomicInteger();

    private FlowEvents() {
    }

    private static boolean jfrReadable() {
        Optional<Module> jfr = ModuleLayer.boot().findModule("jdk.jfr");
        return jfr.isPresent() && FlowEvents.class.getModule().canRead(jfr.get());
    }

    /**
     * A site in stack-trace style, {@code com.example.Foo.bar(Foo.java:42)}: the file is named after the top-level
     * class (a site does not carry the class file's source attribute).
     *
     * @param method the method's name, with or without its descriptor
     * @param line the line, or a value {@code <= 0} for none
     */
    public static String frame(String className, String method, int line) {
        int paren = method.indexOf('(');
        String simple = className.substring(className.lastIndexOf('.') + 1);
        int dollar = simple.indexOf('$');
        return className + "." + (paren < 0 ? method : method.substring(0, paren)) + "("
                + (dollar < 0 ? simple : simple.substring(0, dollar)) + ".java" + (line > 0 ? ":" + line : "") + ")";
    }

    /**
     * Begins a pinned wait at {@code site} on the current thread (ending the one still open there, if
     * any), when {@code dev.flow.Pinned} is enabled; otherwise does nothing.
     */
    static void pinnedWaitBegins(Pins.Site site) {
        if (AVAILABLE && JfrEvents.beginPinned(site)) {
            OPEN.incrementAndGet();
        }
    }

    /**
     * Ends the current thread's pinned wait, if one is open, and records it if it lasted its threshold.
     * Costs one volatile read while none is open anywhere.
     */
    public static void pinnedWaitEnds() {
        if (OPEN.get() != 0 && JfrEvents.endPinned()) {
            OPEN.decrementAndGet();
        }
    }

    /**
     * Records a strict refusal, when {@code dev.flow.Refused} is enabled.
     *
     * @param site the refused frame, in stack-trace style ({@code com.example.Foo.bar(Foo.java:42)}), or the
     *     class when the refusal is not one method's
     * @param reason why it was refused
     */
    public static void refused(String site, String reason) {
        if (AVAILABLE) {
            JfrEvents.refused(site, reason);
        }
    }
}
