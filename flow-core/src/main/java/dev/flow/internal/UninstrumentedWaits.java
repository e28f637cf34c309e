package dev.flow.internal;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Reports a transport wait that blocks inside a flow because it was reached through an
 * uninstrumented frame, e.g. a {@code DataInputStream} wrapped around {@code
 * Transport.inputStream()}: the flow cannot suspend there, so it pins like any other pinned await.
 *
 * <p>The site is the nearest caller on the stack loaded by a class loader other than Flow's and the
 * JDK's, or marked {@link Instrumented} by the agent or build-time instrumentation (the in-scope code
 * that called the JDK decorator), Flow's own substitutes ({@code dev.flow.jdk}) and copies skipped. It is registered with {@link Pins} once
 * and reported through it: a warning once per site, or, when the site's loader is strict ({@code
 * isStrict()} returns {@code true}) or its class is marked strict, an {@link dev.flow.UnsuspendableFrameException}. A flow that
 * is already pinned reports its current site instead. Thread-safe.
 */
public final class UninstrumentedWaits {

    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    private static final ClassLoader FLOW_LOADER = UninstrumentedWaits.class.getClassLoader();
    private static final String FLOW_SUFFIX = "$flow";
    /**
     * Site ids by "method:line", per calling class: they go with the class, and the {@link Pins} sites
     * are registered in a group owned by its loader, so a dropped loader leaves nothing behind.
     */
    private static final ClassValue<ConcurrentMap<String, Integer>> SITES = new ClassValue<>() {
        @Override
        protected ConcurrentMap<String, Integer> computeValue(Class<?> type) {
            return new ConcurrentHashMap<>();
        }
    };
    private static final ClassValue<Boolean> STRICT = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            Instrumented mark = type.getAnnotation(Instrumented.class);
            if (mark != null) {
                return mark.strict();
            }
            ClassLoader l = type.getClassLoader();
            try {
                return l != null && Boolean.TRUE.equals(l.getClass().getMethod("isStrict").invoke(l));
            } catch (ReflectiveOperationException | RuntimeException e) {
                return false;
            }
        }
    };

    private UninstrumentedWaits() {
    }

    /**
     * Whether {@code type} was instrumented strict: by a loader whose {@code isStrict()} returns {@code
     * true}, or marked {@link Instrumented#strict()} by the agent or build-time instrumentation.
     */
    static boolean isStrict(Class<?> type) {
        return STRICT.get(type);
    }

    /**
     * Called before a transport wait blocks the thread: reports it at its pinned site (or refuses it on a
     * carrier), and lets another thread take the worker's place while it blocks; does nothing outside a
     * flow. Public only because each class loader's copy of {@link Awaits} calls it.
     */
    public static void onBlockingWait() {
        FlowState f = FlowState.current();
        if (f == null) {
            return;
        }
        int site = f.pinSite != Pins.NOT_PINNED ? f.pinSite : siteOfCaller(Pins.Reason.CALLBACK);
        if (site != Pins.NOT_PINNED) {
            Pins.onPinnedAwait(site);
        } else {
            Pins.refuseOnCarrier("cannot suspend a blocking transport wait called through uninstrumented code");
            SchedulerCore.beforePinnedWait();
        }
    }

    /**
     * Called by a transport's stream views ({@link TransportInputStream}, {@link TransportOutputStream})
     * on every read, write and flush that reaches them: in-scope calls are rewritten to suspending
     * forms, so a view method runs in a flow only under an uninstrumented frame (a JDK decorator
     * such as {@code DataInputStream}). A strict site is refused there whether or not the call would
     * wait; a lenient one is reported only when it blocks ({@link #onBlockingWait()}). Outside a flow
     * it does nothing; in a flow it costs a stack walk (this path pins anyway).
     *
     * @throws dev.flow.UnsuspendableFrameException if the flow is pinned at, or called from, a strict site
     */
    public static void onViewCall() {
        FlowState f = FlowState.current();
        if (f == null || f.decoratedReady()) {
            return;
        }
        int site = f.pinSite != Pins.NOT_PINNED ? f.pinSite : siteOfCaller(Pins.Reason.CALLBACK);
        if (site != Pins.NOT_PINNED && Pins.isStrict(site)) {
            Pins.onPinnedAwait(site);
        }
    }

    /**
     * Called, in a flow, before a JDK call that may wait on a transport inside JDK frames and that Flow
     * cannot make sure will not (the deprecated {@code readLine} of a {@code DataInputStream} made outside
     * the scope over a view): reports it at the calling in-scope method's site as a blocking call with no
     * suspendable form (a warning once per site; refused at a strict site), whether or not it would wait.
     * Outside a flow it does nothing.
     *
     * @throws dev.flow.UnsuspendableFrameException if the site, or the pin the flow is in, is strict
     */
    public static void onBlockingCall() {
        onBlockingCall(Pins.NOT_PINNED);
    }

    /**
     * {@link #onBlockingCall()}, reported at {@code fallback} (a site, or {@link Pins#NOT_PINNED}) when no
     * in-scope method is on the stack.
     */
    static void onBlockingCall(int fallback) {
        FlowState f = FlowState.current();
        if (f == null) {
            return;
        }
        int site = f.pinSite != Pins.NOT_PINNED ? f.pinSite : siteOfCaller(Pins.Reason.BLOCKING_CALL);
        site = site != Pins.NOT_PINNED ? site : fallback;
        if (site != Pins.NOT_PINNED) {
            Pins.onPinnedAwait(site);
        }
    }

    private static int siteOfCaller(Pins.Reason reason) {
        Optional<StackWalker.StackFrame> frame = WALKER.walk(s -> s.filter(UninstrumentedWaits::inScope).findFirst());
        if (frame.isEmpty()) {
            return Pins.NOT_PINNED;
        }
        StackWalker.StackFrame fr = frame.get();
        Class<?> type = fr.getDeclaringClass();
        String method = sourceName(fr.getMethodName()) + fr.getDescriptor();
        return SITES.get(type).computeIfAbsent(reason + " " + method + ":" + fr.getLineNumber(), k -> {
            try (Pins.Group owned = Pins.openGroup(type.getClassLoader())) {
                return Pins.register(type.getName(), method, fr.getLineNumber(), reason, STRICT.get(type));
            }
        });
    }

    /** The name the user wrote: the loader's suspendable body {@code m$flow} of a split method {@code m} is {@code m}. */
    private static String sourceName(String method) {
        return method.endsWith(FLOW_SUFFIX) ? method.substring(0, method.length() - FLOW_SUFFIX.length()) : method;
    }

    /**
     * Whether {@code f} is loaded code: not Flow's own copies ({@code Awaits}) nor its suspendable JDK
     * substitutes ({@code dev.flow.jdk}, whose caller is the site a user can change).
     */
    private static boolean inScope(StackWalker.StackFrame f) {
        if (f.getClassName().startsWith("dev.flow.internal.") || f.getClassName().startsWith("dev.flow.jdk.")) {
            return false;
        }
        if (f.getDeclaringClass().isAnnotationPresent(Instrumented.class)) {
            return true;
        }
        ClassLoader l = f.getDeclaringClass().getClassLoader();
        if (l == null || l == FLOW_LOADER || l == ClassLoader.getPlatformClassLoader()) {
            return false;
        }
        for (ClassLoader p = FLOW_LOADER; p != null; p = p.getParent()) {
            if (p == l) {
                return false;
            }
        }
        return true;
    }
}
