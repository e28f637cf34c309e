package dev.flow.internal;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class that the agent or build-time instrumentation made suspendable, in a class loader shared
 * with Flow's own classes (where a {@code ContinuationClassLoader}'s classes are told apart by their
 * loader): {@link UninstrumentedWaits} finds the in-scope caller of a transport view, and whether its
 * sites are strict, by it.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Instrumented {

    /** Whether the class was instrumented in strict mode. */
    boolean strict();
}
