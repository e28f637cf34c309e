package dev.flow.internal;

/**
 * Initialises a class at the point where {@code new T(...)} names it. The continuation engine moves
 * the allocation of an instrumented method's {@code new T(args)} after the arguments; the instrumenter
 * puts a call to {@link #ensure(Class)} at the original place, so {@code T}'s static initializer runs
 * before the arguments as the JLS requires. Called from instrumented code; thread-safe.
 */
public final class ClassInit {

    private static final ClassValue<Boolean> INITIALISED = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            try {
                Class.forName(type.getName(), true, type.getClassLoader());
            } catch (ClassNotFoundException e) {
                NoClassDefFoundError error = new NoClassDefFoundError(type.getName());
                error.initCause(e);
                throw error;
            }
            return Boolean.TRUE;
        }
    };

    private ClassInit() {
    }

    /**
     * Initialises {@code type} as the JVM's {@code new} would: runs its static initializer (and its
     * superclasses') unless done, throws {@link ExceptionInInitializerError} or {@link
     * NoClassDefFoundError} as {@code new} would.
     */
    public static void ensure(Class<?> type) {
        INITIALISED.get(type);
    }
}
