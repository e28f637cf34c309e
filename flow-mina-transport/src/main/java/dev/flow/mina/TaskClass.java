package dev.flow.mina;

import dev.flow.FlowScheduler;
import dev.flow.SuspendPolicy;
import dev.flow.internal.FlowTask;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.Callable;

/**
 * A flow's task class and its constructor, resolved and validated once: {@code new C(first,
 * extra...)} where {@code first} is the per-flow value (a server session's transport, a client's
 * connector) and {@code extra} the arguments given once. The class is used as given, so when it was
 * loaded through a {@code ContinuationClassLoader} every instance is an instrumented object.
 *
 * <p>Immutable and thread-safe.
 */
final class TaskClass {

    private final Class<?> type;
    private final Constructor<?> constructor;
    private final Object[] extra;
    /** The per-flow value's type the constructor was resolved for. */
    private final Class<?> first;

    private TaskClass(Class<?> type, Constructor<?> constructor, Object[] extra, Class<?> first) {
        this.type = type;
        this.constructor = constructor;
        this.extra = extra;
        this.first = first;
    }

    /**
     * Resolves the public constructor of {@code type} whose first parameter accepts any {@code first}
     * (an API type such as {@code Transport}) and the others {@code extra}.
     *
     * @throws IllegalArgumentException naming the class and what is expected if there is none, or if
     *     the class is neither a {@link Callable} nor a {@link Runnable}
     */
    static TaskClass of(Class<?> type, Class<?> first, Object... extra) {
        return of(type, new Class<?>[] {first}, extra);
    }

    /**
     * Like {@link #of(Class, Class, Object...)}, for a first parameter accepting any of {@code firsts}, tried
     * in order; {@link #first()} tells which one was found.
     */
    static TaskClass of(Class<?> type, Class<?>[] firsts, Object... extra) {
        Objects.requireNonNull(type, "handler class");
        Object[] args = extra.clone();
        if (!Callable.class.isAssignableFrom(type) && !Runnable.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException("handler class: " + type.getName()
                    + " (expected: a class implementing Callable or Runnable)");
        }
        if (!Modifier.isPublic(type.getModifiers()) || Modifier.isAbstract(type.getModifiers())) {
            throw new IllegalArgumentException("handler class: " + type.getName() + " (expected: a public concrete class)");
        }
        StringBuilder expected = new StringBuilder();
        for (Class<?> first : firsts) {
            for (Constructor<?> k : type.getConstructors()) {
                Class<?>[] p = k.getParameterTypes();
                if (p.length == args.length + 1 && p[0].isAssignableFrom(first) && matches(p, args)) {
                    return new TaskClass(type, k, args, first);
                }
            }
            expected.append(expected.length() == 0 ? "" : " or ").append('(').append(first.getSimpleName())
                    .append(argTypes(args)).append(')');
        }
        throw new IllegalArgumentException("handler class: " + type.getName() + " (expected: a public constructor "
                + expected + ")");
    }

    /** The type of the per-flow value {@link #newTask} takes. */
    Class<?> first() {
        return first;
    }

    /** Loads {@code className} through {@code loader} (instrumenting it if the loader does) and resolves it. */
    static TaskClass load(ClassLoader loader, String className, Class<?>[] first, Object... extra) {
        Objects.requireNonNull(loader, "loader");
        Objects.requireNonNull(className, "className");
        try {
            return of(Class.forName(className, true, loader), first, extra);
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("className: " + className + " (expected: a class visible to " + loader + ")", e);
        }
    }

    /** The task class. */
    Class<?> type() {
        return type;
    }

    /** Whether the class was instrumented as a flow entry by a {@code ContinuationClassLoader}. */
    boolean instrumented() {
        return FlowTask.class.isAssignableFrom(type);
    }

    /** Creates one task. Exceptions of the constructor propagate unchanged. */
    Object newTask(Object first) throws Exception {
        Object[] args = new Object[extra.length + 1];
        args[0] = first;
        System.arraycopy(extra, 0, args, 1, extra.length);
        try {
            return constructor.newInstance(args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception) {
                throw (Exception) cause;
            }
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw e;
        }
    }

    /**
     * Whether flows of {@code scheduler} can suspend, so that a task that is not instrumented would
     * hold a thread for its whole life instead: every policy but {@link SuspendPolicy#never()}.
     */
    static boolean suspends(FlowScheduler scheduler) {
        return scheduler.policy().kind() != SuspendPolicy.Kind.NEVER;
    }

    /**
     * The error for a task that is not instrumented, given to a scheduler whose flows suspend: names
     * the class, its loader, what happens and the fix ({@code syncMode}: how to run it in sync mode instead).
     * A class its loader includes, and so left as compiled because no wait of it can suspend, is told apart
     * from one the loader never saw.
     */
    static IllegalStateException notInstrumented(Class<?> type, String where, String syncMode) {
        String head = where + ": " + type.getName() + " (loaded by " + type.getClassLoader() + ")";
        if (inLoadersScope(type)) {
            return new IllegalStateException(head + " is in the loader's scope, but no wait its call() or run()"
                    + " reaches can suspend (each is inside a synchronized block, a constructor or a callback through"
                    + " code that is not instrumented, or the loader left the method as compiled, with a warning): every"
                    + " session would hold a thread for its whole life. Expected: the waits outside such stretches (the"
                    + " loader's warnings and flow:verify's pin report name each site), or " + syncMode
                    + " for sync mode");
        }
        return new IllegalStateException(head
                + " is not an instrumented flow task: it would hold a thread (a worker, or one standing in for it)"
                + " for its whole life instead of suspending. Expected: a class loaded through a"
                + " ContinuationClassLoader whose included packages contain it (or in the packages the agent or the"
                + " build plugin instrument), created by Flow (FlowServer.builder().handler(loader, \"" + type.getName()
                + "\") or handler(loader.loadClass(...))), not a lambda or anonymous class of a package that is not"
                + " included wrapped around the handler; or a scheduler with SuspendPolicy.never()"
                + " or " + syncMode + " for sync mode");
    }

    /**
     * Whether {@code type}'s loader is a {@code ContinuationClassLoader} whose included and not excluded packages
     * contain {@code type} (read through its public {@code includes()} and {@code excludes()}: this module does
     * not depend on the loader's).
     */
    private static boolean inLoadersScope(Class<?> type) {
        ClassLoader l = type.getClassLoader();
        if (l == null || !l.getClass().getName().equals("dev.flow.loader.ContinuationClassLoader")) {
            return false;
        }
        try {
            return within(type, l.getClass().getMethod("includes").invoke(l))
                    && !within(type, l.getClass().getMethod("excludes").invoke(l));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }

    /** Whether {@code type} is in one of {@code packages} (an {@code Iterable} of package names) or below. */
    private static boolean within(Class<?> type, Object packages) {
        for (Object p : (Iterable<?>) packages) {
            if (type.getName().startsWith(p + ".")) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(Class<?>[] params, Object[] args) {
        for (int i = 0; i < args.length; i++) {
            Class<?> p = MethodType.methodType(params[i + 1]).wrap().returnType();
            if (args[i] == null ? params[i + 1].isPrimitive() : !p.isInstance(args[i])) {
                return false;
            }
        }
        return true;
    }

    private static String argTypes(Object[] args) {
        StringBuilder b = new StringBuilder();
        for (Object a : args) {
            b.append(", ").append(a == null ? "null" : a.getClass().getSimpleName());
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return type.getName() + Arrays.toString(extra);
    }
}
