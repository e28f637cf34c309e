package dev.flow.internal;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Writes the "jstack of Flow": every flow of a scheduler, running, suspended or queued, with what it
 * waits for, since when, and its stack of user frames. A running flow's stack is its worker's; a
 * suspended flow's is the one recorded when it suspended, if the scheduler records stacks. The
 * dump is a best-effort snapshot taken while flows keep running. Thread-safe.
 */
final class FlowDumper {

    private static final int MAX_FRAMES = 64;
    private static final int MAX_DESCRIPTION = 160;
    private static final StackWalker WALKER = StackWalker.getInstance();

    private FlowDumper() {
    }

    /** The caller's frames outside Flow's runtime and the continuation engine (a stack walk). */
    static StackTraceElement[] userFrames() {
        return WALKER.walk(s -> s.filter(f -> isUserFrame(f.getClassName()))
                .map(StackWalker.StackFrame::toStackTraceElement)
                .map(FlowDumper::sourceFrame)
                .filter(e -> e != null)
                .limit(MAX_FRAMES)
                .toArray(StackTraceElement[]::new));
    }

    /**
     * The frame as the user wrote it: the class loader's split {@code m$flow} methods shown as {@code
     * m}; {@code null} for the generated entry {@code flow$call}.
     */
    private static StackTraceElement sourceFrame(StackTraceElement e) {
        String m = e.getMethodName();
        if (m.equals("flow$call")) {
            return null;
        }
        if (!m.endsWith("$flow")) {
            return e;
        }
        return new StackTraceElement(e.getClassLoaderName(), e.getModuleName(), e.getModuleVersion(),
                e.getClassName(), m.substring(0, m.length() - "$flow".length()), e.getFileName(), e.getLineNumber());
    }

    private static boolean isUserFrame(String className) {
        return !className.startsWith("dev.flow.internal.")
                && !className.startsWith("org.apache.commons.javaflow.")
                && !className.startsWith("net.tascalate.");
    }

    static String dump(SchedulerCore s) {
        int now = s.clock();
        long[] c = s.counters();
        StringBuilder b = new StringBuilder(256);
        b.append("flow scheduler '").append(s.name()).append("': active=").append(c[4])
                .append(" running=").append(c[5]).append(" suspended=").append(c[6])
                .append(" queued=").append(c[7]).append(" workers alive=").append(c[8])
                .append('/').append(s.workerCount()).append('\n');
        List<Object[]> running = s.runningFlows();
        b.append("running (").append(running.size()).append("):\n");
        for (Object[] r : running) {
            FlowState f = (FlowState) r[0];
            b.append("  ").append(f).append(" on ").append(((Thread) r[1]).getName()).append('\n');
            frames(b, filter((StackTraceElement[]) r[2]));
        }
        List<FlowState> suspended = s.suspendedFlows();
        b.append("suspended (").append(suspended.size()).append("):\n");
        for (FlowState f : suspended) {
            b.append("  ").append(f).append(", suspended for ").append(millis(now, f.since))
                    .append(" ms on ").append(describe(f.blocker));
            long timeout = f.timeoutNanos();
            if (timeout > 0) {
                b.append(", timeout ").append(TimeUnit.NANOSECONDS.toMillis(timeout)).append(" ms");
            }
            if (f.stop != 0) {
                b.append(", cancelled");
            }
            b.append('\n');
            StackTraceElement[] site = f.site();
            if (site != null) {
                frames(b, site);
            } else if (!s.recordsStacks()) {
                b.append("      (stack not recorded: FlowScheduler.Builder.recordStacks(true))\n");
            }
        }
        List<FlowState> queued = s.queuedFlows();
        b.append("queued (").append(queued.size()).append("):\n");
        for (FlowState f : queued) {
            b.append("  ").append(f).append(", ready for ").append(millis(now, f.since)).append(" ms\n");
        }
        return b.toString();
    }

    private static StackTraceElement[] filter(StackTraceElement[] stack) {
        return java.util.Arrays.stream(stack).filter(e -> isUserFrame(e.getClassName()))
                .map(FlowDumper::sourceFrame)
                .filter(e -> e != null)
                .limit(MAX_FRAMES).toArray(StackTraceElement[]::new);
    }

    private static void frames(StringBuilder b, StackTraceElement[] frames) {
        for (StackTraceElement e : frames) {
            b.append("      at ").append(e).append('\n');
        }
    }

    private static int millis(int now, int since) {
        return now - since;
    }

    private static String describe(Object w) {
        if (w == null) {
            return "(nothing: resuming)";
        }
        String d;
        try {
            d = String.valueOf(w);
        } catch (RuntimeException e) {
            d = w.getClass().getName() + " (toString failed: " + e + ")";
        }
        if (d.length() > MAX_DESCRIPTION) {
            d = d.substring(0, MAX_DESCRIPTION) + "...";
        }
        return d;
    }
}
