package dev.flow.internal;

import dev.flow.UnsuspendableFrameException;
import java.lang.invoke.CallSite;
import java.lang.invoke.ConstantCallSite;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.ref.PhantomReference;
import java.lang.ref.ReferenceQueue;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;

/**
 * Marks stretches of a flow during which it must not suspend because a frame on its stack cannot be
 * captured (a JDK callback, reflection, a constructor, a held monitor).
 *
 * <p>The class loader brackets such stretches with {@link #enter(int)} and {@link #exit(int)}, naming
 * a call site registered with {@link #register}. Every exit from a bracket, normal or by an exception,
 * ends it. An await inside a bracket that would block blocks the thread and logs one warning per site
 * (lenient sites; an await that need not block costs nothing and logs nothing). Strict loaders call
 * {@link #checkAwait()} before every suspension point, so an await inside a bracket is refused with
 * {@link UnsuspendableFrameException} by its site, whether or not it would block. Both show in a JFR
 * recording, as {@code dev.flow.Pinned} (the blocked wait, above its threshold) and {@code dev.flow.Refused}
 * ({@link FlowEvents}).
 * Thread-safe; the brackets cost one thread-local lookup and run only at such sites.
 */
public final class Pins {

    /** Returned by {@link #enter(int)} outside any flow. */
    public static final int NO_FLOW = Integer.MIN_VALUE;
    /** The pin state of a flow that is not pinned. */
    public static final int NOT_PINNED = -1;

    private static final Logger LOG = Slf4j.logger(Pins.class);
    private static final List<Site> SITES = new ArrayList<>();
    /** Ids of released sites, reused by {@link #register}. Guarded by {@code Pins.class}. */
    private static final Deque<Integer> FREE = new ArrayDeque<>();
    private static final ReferenceQueue<Object> DROPPED = new ReferenceQueue<>();
    /** Keeps the groups' phantom references reachable until their owners are. Guarded by {@code Pins.class}. */
    private static final Set<OwnerRef> OWNERS = new HashSet<>();
    private static final ThreadLocal<Group> COLLECTING = new ThreadLocal<>();
    private static final List<String> WARNINGS = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Where this thread's {@link #report} calls are recorded, if anywhere ({@link #recordReports}). */
    private static final ThreadLocal<List<Integer>> REPORTS = new ThreadLocal<>();

    private Pins() {
    }

    /** Why a stretch of code cannot suspend. */
    public enum Reason {
        /** A {@code synchronized} method holds its monitor. */
        SYNCHRONIZED_METHOD("a synchronized method holds its monitor"),
        /** A {@code synchronized} block holds a monitor. */
        MONITOR("a synchronized block holds a monitor"),
        /** Constructors are never instrumented. */
        CONSTRUCTOR("constructors cannot be suspended"),
        /** Static initializers are never instrumented. */
        STATIC_INITIALIZER("static initializers cannot be suspended"),
        /** The method is called back by code outside the instrumented scope, e.g. the JDK. */
        CALLBACK("it is called back through an uninstrumented frame (a JDK or out-of-scope caller)"),
        /** Reflective calls cannot be captured. */
        REFLECTION("reflective calls cannot be captured"),
        /** The flow's task was not loaded through a ContinuationClassLoader. */
        NOT_INSTRUMENTED("the flow's task was not loaded through a ContinuationClassLoader"),
        /** An owner-based lock taken at this site is held: the flow must stay on the owning thread. */
        LOCK("a java.util.concurrent.locks.Lock taken here is still held"),
        /** A blocking call that cannot suspend, e.g. {@code Object.wait} or {@code Condition.await}. */
        BLOCKING_CALL("the call blocks its thread and has no suspendable form"),
        /** Acquiring a lock made outside the loaded scope that another thread holds: the wait blocks the thread. */
        CONTENDED_LOCK("the lock, made outside the loaded scope, is held by another thread and waiting for it blocks the thread"),
        /** The continuation engine cannot transform the method: it runs as compiled (lenient loaders only). */
        UNINSTRUMENTED("the continuation engine cannot instrument this method");

        private final String text;

        Reason(String text) {
            this.text = text;
        }

        /** A short explanation. */
        public String text() {
            return text;
        }
    }

    /** A registered site; immutable apart from its warned-once flag and its cached texts. */
    static final class Site {
        final String className;
        final String method;
        final int line;
        final String where;
        final Reason reason;
        final boolean strict;
        final String detail;
        final AtomicBoolean warned = new AtomicBoolean();
        /** {@link #frame()}, once computed. */
        private String frame;

        Site(String className, String method, int line, Reason reason, String detail, boolean strict) {
            this.className = className;
            this.method = method;
            this.line = line;
            this.where = className + "." + method + (line > 0 ? " (line " + line + ")" : "");
            this.reason = reason;
            this.detail = detail;
            this.strict = strict;
        }

        String message() {
            return "cannot suspend at " + where + ": " + reasonText();
        }

        /** The reason's text and the detail, if any. */
        String reasonText() {
            return reason.text() + (detail == null ? "" : " (" + detail + ")");
        }

        /** The site in stack-trace style ({@link FlowEvents#frame}). Racy but idempotent. */
        String frame() {
            String f = frame;
            if (f == null) {
                f = FlowEvents.frame(className, method, line);
                frame = f;
            }
            return f;
        }
    }

    /**
     * Registers a site and returns its id.
     *
     * @param className binary class name
     * @param method method name and descriptor
     * @param line source line, or -1
     * @param reason why the site cannot suspend
     * @param strict throw instead of blocking
     */
    public static int register(String className, String method, int line, Reason reason, boolean strict) {
        return register(className, method, line, reason, null, strict);
    }

    /**
     * Registers a site whose message adds {@code detail} (e.g. why the engine failed) after the reason.
     *
     * @param detail the particular cause, or {@code null}
     * @see #register(String, String, int, Reason, boolean)
     */
    public static synchronized int register(String className, String method, int line, Reason reason, String detail,
                                            boolean strict) {
        expungeDropped();
        Site site = new Site(className, method, line, reason, detail, strict);
        int id;
        if (FREE.isEmpty()) {
            SITES.add(site);
            id = SITES.size() - 1;
        } else {
            id = FREE.pop();
            SITES.set(id, site);
        }
        Group g = COLLECTING.get();
        if (g != null) {
            g.ref.ids.add(id);
        }
        return id;
    }

    /**
     * Starts a group: the sites this thread registers until {@link Group#close()} belong to {@code
     * owner} (a class loader whose code names them) and are released, their ids reused, once {@code
     * owner} is unreachable. Without a group, sites live for the life of the process.
     */
    public static synchronized Group openGroup(Object owner) {
        expungeDropped();
        OwnerRef ref = new OwnerRef(owner);
        OWNERS.add(ref);
        Group g = new Group(ref, COLLECTING.get());
        COLLECTING.set(g);
        return g;
    }

    /** The number of registered sites not yet released (for tests and diagnostics). */
    public static synchronized int liveSites() {
        expungeDropped();
        return SITES.size() - FREE.size();
    }

    private static void expungeDropped() {
        for (Object r = DROPPED.poll(); r != null; r = DROPPED.poll()) {
            OwnerRef ref = (OwnerRef) r;
            OWNERS.remove(ref);
            for (int id : ref.ids) {
                SITES.set(id, null);
                FREE.push(id);
            }
        }
    }

    /** Sites registered for one owner; see {@link #openGroup}. Used by the thread that opened it. */
    public static final class Group implements AutoCloseable {
        private final OwnerRef ref;
        private final Group previous;

        private Group(OwnerRef ref, Group previous) {
            this.ref = ref;
            this.previous = previous;
        }

        /** Stops collecting this thread's registrations into the group. */
        @Override
        public void close() {
            if (COLLECTING.get() == this) {
                if (previous == null) {
                    COLLECTING.remove();
                } else {
                    COLLECTING.set(previous);
                }
            }
        }
    }

    private static final class OwnerRef extends PhantomReference<Object> {
        /** Guarded by {@code Pins.class}. */
        final List<Integer> ids = new ArrayList<>();

        OwnerRef(Object owner) {
            super(owner, DROPPED);
        }
    }

    private static synchronized Site site(int id) {
        return SITES.get(id);
    }

    /** Whether site {@code id} throws instead of blocking. */
    static boolean isStrict(int id) {
        return site(id).strict;
    }

    /**
     * Whether site {@code id} lies in one of Flow's substitutes of JDK decorators ({@code dev.flow.jdk}): a
     * user cannot change it, so what it reports is better named at the loaded code that called the decorator.
     */
    static boolean inFlowDecorator(int id) {
        return site(id).className.startsWith("dev.flow.jdk.");
    }

    /** Starts a pinned stretch at {@code site}; returns the state to pass to {@link #exit(int)}. */
    public static int enter(int site) {
        FlowState f = FlowState.current();
        if (f == null) {
            return NO_FLOW;
        }
        int prev = f.pinSite;
        f.pinSite = site;
        return prev;
    }

    /** Ends a pinned stretch begun by {@link #enter(int)}. */
    public static void exit(int prev) {
        if (prev == NO_FLOW) {
            return;
        }
        FlowState f = FlowState.current();
        if (f != null) {
            f.pinSite = prev;
        }
        FlowEvents.pinnedWaitEnds();
    }

    /**
     * Called by a strict loader's code before every suspension point, whether or not it would block:
     * a flow pinned at a strict site is refused there, so a strict run does not depend on timing.
     * Outside a flow, or unpinned, it does nothing.
     *
     * @throws UnsuspendableFrameException if the current flow is pinned at a strict site
     */
    public static void checkAwait() {
        FlowState f = FlowState.current();
        if (f != null && f.pinSite != NOT_PINNED) {
            Site s = site(f.pinSite);
            if (s.strict) {
                throw refused(s);
            }
        }
        Locks.checkAwait();
    }

    /**
     * Called when a pinned flow would suspend: throws for a strict site (or on a busy carrier whose loop
     * cannot go on on another thread), else warns once per site and lets another thread stand in for the
     * worker, or run the carrier's loop, while it blocks. A flow that blocks here no longer runs on
     * adaptive carriers.
     */
    static void onPinnedAwait(int id) {
        Site s = site(id);
        if (s.strict) {
            throw refused(s);
        }
        // The carrier first: the message is built only for the refusal, not for every pinned wait.
        Thread carrier = SchedulerCore.busyCarrier();
        if (carrier != null && !SchedulerCore.handOffCarrierLoop(carrier)) {
            throw refusedOnCarrier(s.frame(), s.message(), carrier);
        }
        pinnedHere();
        warnOnce(s);
        FlowEvents.pinnedWaitBegins(s);
        SchedulerCore.beforePinnedWait();
    }

    /** The refusal of a strict site, recorded as a {@code dev.flow.Refused} event. */
    private static UnsuspendableFrameException refused(Site s) {
        FlowEvents.refused(s.frame(), s.reasonText());
        return new UnsuspendableFrameException(s.message());
    }

    /**
     * Called before a wait reached through uninstrumented code blocks the current flow's thread. On a
     * carrier running the flow (an I/O thread), it hands the carrier's loop to another thread ({@code
     * Dispatch.ADAPTIVE}), or refuses the wait if it cannot ({@code Dispatch.IO_THREADS}): the wait would
     * stall every session of that thread, and can deadlock when the awaited input is read by the very
     * thread it blocks. The flow no longer runs on adaptive carriers.
     *
     * @param what the wait, e.g. {@code "cannot suspend at C.m (line 3): ..."}
     * @throws UnsuspendableFrameException if the current thread is a carrier running a flow whose loop
     *     cannot be handed off
     */
    static void refuseOnCarrier(String what) {
        Thread carrier = SchedulerCore.busyCarrier();
        if (carrier != null && !SchedulerCore.handOffCarrierLoop(carrier)) {
            throw refusedOnCarrier("an uninstrumented caller", what, carrier);
        }
        pinnedHere();
    }

    /** Keeps the current flow, about to block in a pinned wait, off adaptive carriers from now on. */
    private static void pinnedHere() {
        FlowState f = FlowState.current();
        if (f != null) {
            f.neverOnCarrier();
        }
    }

    private static UnsuspendableFrameException refusedOnCarrier(String site, String what, Thread carrier) {
        String message = what + "; the flow runs on I/O thread " + carrier.getName()
                + ", which a blocking wait would stall with every session it serves: use the WORKERS dispatch"
                + " or make the call suspend";
        FlowEvents.refused(site, message);
        return new UnsuspendableFrameException(message);
    }

    private static final ClassValue<Integer> NOT_INSTRUMENTED_SITES = new ClassValue<>() {
        @Override
        protected Integer computeValue(Class<?> type) {
            return register(type.getName(), "call/run", -1, Reason.NOT_INSTRUMENTED, false);
        }
    };

    /** The lenient site used for flows whose task class was not instrumented. */
    static int notInstrumentedSite(Class<?> taskType) {
        return NOT_INSTRUMENTED_SITES.get(taskType);
    }

    /**
     * Logs the warning of lenient site {@code id} now rather than when an await first blocks there (for
     * sites known when their class is loaded, such as the suspension points of a method the engine
     * cannot instrument); it is still logged once per site at most.
     */
    public static void report(int id) {
        List<Integer> into = REPORTS.get();
        if (into != null) {
            into.add(id);
        }
        warnOnce(site(id));
    }

    /**
     * Records the ids this thread passes to {@link #report} into {@code into} until the returned handle
     * is closed (for a cache of class files, which must report the same sites when it serves a class
     * again). Recordings nest: an inner one hides its reports from the outer.
     */
    public static Recording recordReports(List<Integer> into) {
        List<Integer> previous = REPORTS.get();
        REPORTS.set(into);
        return () -> {
            if (previous == null) {
                REPORTS.remove();
            } else {
                REPORTS.set(previous);
            }
        };
    }

    /** A recording begun by {@link #recordReports}; closed by the thread that began it. */
    public interface Recording extends AutoCloseable {
        /** Stops recording. */
        @Override
        void close();
    }

    private static void warnOnce(Site s) {
        if (s.warned.compareAndSet(false, true)) {
            String text = s.message() + "; blocking the worker thread instead";
            WARNINGS.add(text);
            LOG.warn(text);
        }
    }

    /** The warnings logged so far, one per site at most, oldest first. */
    public static List<String> warnings() {
        return List.copyOf(WARNINGS);
    }

    /**
     * What site {@code id} was registered with, for build-time tools that write it into a class file:
     * {@code {className, method, line, reason, detail, strict}} (an {@code Integer}, a {@link Reason}, a
     * {@code String} or {@code null}, a {@code Boolean}); {@code null} if no such site is registered.
     */
    public static synchronized Object[] registration(int id) {
        Site s = id >= 0 && id < SITES.size() ? SITES.get(id) : null;
        return s == null ? null : new Object[] {s.className, s.method, s.line, s.reason, s.detail, s.strict};
    }

    /**
     * The bootstrap method of the dynamic constant that a build-time-instrumented class holds in place of
     * a site id: registers the site in this process, once per class that names it, and returns its id.
     *
     * @param detail the particular cause, or an empty string for none
     * @param strict 1 to throw instead of blocking, else 0
     */
    public static int bootstrapSite(MethodHandles.Lookup lookup, String name, Class<?> type, String className, String method,
                                    int line, String reason, String detail, int strict) {
        return register(className, method, line, Reason.valueOf(reason), detail.isEmpty() ? null : detail, strict != 0);
    }

    /**
     * The bootstrap method of the {@code invokedynamic} that a build-time-instrumented class calls in
     * place of a site id that a replacement of a call with a receiver takes (with a dynamic constant
     * there, HotSpot 17 crashed computing the helpful {@code NullPointerException} message of a null
     * receiver in the same method; an {@code invokedynamic} is read as any call).
     * Registers the site as {@link #bootstrapSite} does and returns a call site of that constant id.
     */
    public static CallSite bootstrapSiteCall(MethodHandles.Lookup lookup, String name, MethodType type, String className,
                                             String method, int line, String reason, String detail, int strict) {
        int id = bootstrapSite(lookup, name, int.class, className, method, line, reason, detail, strict);
        return new ConstantCallSite(MethodHandles.constant(int.class, id));
    }

    /** The message of a registered site (for tests and diagnostics). */
    public static String describe(int id) {
        return site(id).message();
    }
}
