package dev.flow.loader.conformance;

import java.util.Objects;

/**
 * One conformance case: a fixture class (a {@code Callable} with a no-argument constructor, in a
 * {@code flowtest.conformance} package) and what continuation mode is allowed or required to do with it.
 *
 * <p>Fixtures must be deterministic and repeatable: the same class is run several times per loader,
 * so it keeps no mutable static state.
 */
public final class Case {

    final String className;
    final boolean suspends;
    final String pinReason;

    private Case(String className, boolean suspends, String pinReason) {
        this.className = Objects.requireNonNull(className, "className");
        this.suspends = suspends;
        this.pinReason = pinReason;
    }

    /** A case that must give identical outcomes everywhere and need not suspend. */
    public static Case of(String className) {
        return new Case(className, false, null);
    }

    /** The same case, which must also really suspend when run as a flow. */
    public Case suspends() {
        return new Case(className, true, pinReason);
    }

    /**
     * The same case, which cannot suspend faithfully: strict flows must be refused with an
     * {@code UnsuspendableFrameException} whose message contains {@code reason}; lenient flows and
     * plain threads must give the sync outcome.
     */
    public Case pins(String reason) {
        return new Case(className, false, Objects.requireNonNull(reason, "reason"));
    }

    @Override
    public String toString() {
        return className.substring(className.lastIndexOf('.') + 1);
    }
}
