package dev.flow.internal;

/** Throws a checked exception from a method that does not declare it. Stateless. */
final class Sneaky {

    private Sneaky() {
    }

    /** Throws {@code t}; declared to return so that callers can write {@code throw Sneaky.raise(t)}. */
    @SuppressWarnings("unchecked")
    static <T extends Throwable> T raise(Throwable t) throws T {
        throw (T) t;
    }
}
