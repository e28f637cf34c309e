package dev.flow.bench;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.ThreadFactory;

/**
 * Virtual threads without compiling against JDK 21: {@code Thread.ofVirtual().factory()} is looked
 * up reflectively once; creating a thread is then a plain {@link ThreadFactory} call. On a JDK
 * without them (17) {@link #available()} is {@code false} and {@link #reason()} says why.
 */
public final class VirtualThreads {

    private static final ThreadFactory FACTORY;
    private static final Method IS_VIRTUAL;
    private static final String REASON;

    static {
        ThreadFactory factory = null;
        Method isVirtual = null;
        String reason = null;
        try {
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            Method m = Class.forName("java.lang.Thread$Builder").getMethod("factory");
            factory = (ThreadFactory) m.invoke(builder);
            isVirtual = Thread.class.getMethod("isVirtual");
        } catch (NoSuchMethodException | ClassNotFoundException e) {
            reason = "virtual threads need JDK 21+, this is JDK " + Runtime.version();
        } catch (InvocationTargetException e) {
            reason = "virtual threads unavailable on JDK " + Runtime.version() + ": " + e.getCause();
        } catch (ReflectiveOperationException | RuntimeException e) {
            reason = "virtual threads unavailable on JDK " + Runtime.version() + ": " + e;
        }
        FACTORY = factory;
        IS_VIRTUAL = isVirtual;
        REASON = reason;
    }

    private VirtualThreads() {
    }

    /** Whether virtual threads can be created. */
    public static boolean available() {
        return FACTORY != null;
    }

    /** Why they cannot, or {@code null}. */
    public static String reason() {
        return REASON;
    }

    /**
     * Throws {@link UnsupportedOperationException} with {@link #reason()} unless virtual threads
     * are available.
     */
    public static void require() {
        if (FACTORY == null) {
            throw new UnsupportedOperationException("SKIPPED: " + REASON);
        }
    }

    /** A new, unstarted virtual thread running {@code task}. */
    public static Thread unstarted(Runnable task) {
        require();
        return FACTORY.newThread(task);
    }

    /** A new, started virtual thread running {@code task}. */
    public static Thread start(Runnable task) {
        Thread t = unstarted(task);
        t.start();
        return t;
    }

    /** Whether {@code t} is a virtual thread. */
    public static boolean isVirtual(Thread t) {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (Boolean) IS_VIRTUAL.invoke(t);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
