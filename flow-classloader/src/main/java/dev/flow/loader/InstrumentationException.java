package dev.flow.loader;

/**
 * Thrown when a class cannot be made suspendable. Raised when the class is loaded (or the loader is
 * built), never later as a {@link VerifyError}; the message names the class, method, descriptor and
 * reason.
 */
public final class InstrumentationException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String className;
    private final String methodName;
    private final String descriptor;
    private final String reason;

    /** Creates the exception. */
    public InstrumentationException(String className, String methodName, String descriptor, String reason) {
        this(className, methodName, descriptor, reason, null);
    }

    /** Creates the exception with a cause. */
    public InstrumentationException(String className, String methodName, String descriptor, String reason, Throwable cause) {
        super("cannot instrument " + className + (methodName == null || methodName.isEmpty() ? "" : "." + methodName + descriptor)
                + ": " + reason, cause);
        this.className = className;
        this.methodName = methodName;
        this.descriptor = descriptor;
        this.reason = reason;
    }

    /** Binary name of the class. */
    public String className() {
        return className;
    }

    /** Name of the method, or an empty string if the problem is not in one method. */
    public String methodName() {
        return methodName;
    }

    /** Descriptor of the method, or an empty string. */
    public String descriptor() {
        return descriptor;
    }

    /** Why the class or method cannot be made suspendable: the message without the class and method. */
    public String reason() {
        return reason;
    }
}
