package dev.flow;

/**
 * Thrown in strict mode when a flow would have to suspend across a frame that cannot be captured:
 * a JDK callback such as {@code List.forEach}, reflection, a constructor, or a held monitor.
 *
 * <p>The message names the class, method and line of the offending frame and the reason. In lenient
 * mode the thread blocks instead and the same text is logged once per call site.
 */
public final class UnsuspendableFrameException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /** Creates the exception with a message naming the frame and the reason. */
    public UnsuspendableFrameException(String message) {
        super(message);
    }
}
