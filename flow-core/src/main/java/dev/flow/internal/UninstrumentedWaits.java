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
 * JDK's (the in-scope code that called the JDK decorator). It is registered with {@link Pins} once
 * and reported through it: a warning once per site, or, when the site's loader is strict ({@code
 * isStrict()} returns {@code true}), an {@link dev.flow.UnsuspendableFrameException}. A flow that
 * is already pinned reports its current site instead. Thread-safe.
 */
public final class UninstrumentedWaits {

    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    private static final ClassLoader FLOW_LOADER = UninstrumentedWaits.class.getClassLoader();
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
     * Called before a transport wait blocks the thread; does nothing outside a flow. Public only
     * because each class loader's copy of {@link Awaits} calls it.
     */
    public static void onBlockingWait() {
        FlowState f = FlowState.current();
        if (f == null) {
            return;
        }
        int site = f.pinSite != Pins.NOT_PINNED ? f.pinSite : siteOfCaller();
        if (site != Pins.NOT_PINNED) {
            Pins.onPinnedAwait(site);
        } else {
            Pins.refuseOnCarrier("cannot suspend a blocking transport wait called through uninstrumented code");
        }
    }

    private static int siteOfCaller() {
        Optional<StackWalker.StackFrame> frame = WALKER.walk(s -> s.filter(UninstrumentedWaits::inScope).findFirst());
        if (frame.isEmpty()) {
            return Pins.NOT_PINNED;
        }
        StackWalker.StackFrame fr = frame.get();
        Class<?> type = fr.getDeclaringClass();
        return SITES.get(type).computeIfAbsent(fr.getMethodName() + ":" + fr.getLineNumber(), k -> {
            try (Pins.Group owned = Pins.openGroup(type.getClassLoader())) {
                return Pins.register(type.getName(), fr.getMethodName(), fr.getLineNumber(), Pins.Reason.CALLBACK,
                        STRICT.get(type));
            }
        });
    }

    private static boolean inScope(StackWalker.StackFrame f) {
        if (f.getClassName().startsWith("dev.flow.internal.")) {
            return false;
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
