package dev.flow;

import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * Thrown by a read that would have had to wait past the deadline set with {@link
 * Transport#deadline(Duration)}. A {@link SocketTimeoutException}, so servers count the session as
 * timed out; the transport stays usable (a later read with a later deadline, or none, may go on).
 */
public final class DeadlineExceededException extends SocketTimeoutException {
    private static final long serialVersionUID = 1L;

    private final Duration timeout;

    /**
     * Creates the exception.
     *
     * @param source names the connection (its {@code toString()}), e.g. the peer's address
     * @param timeout the timeout the deadline was set with
     */
    public DeadlineExceededException(Object source, Duration timeout) {
        super("read from " + source + " passed its deadline of " + timeout.toMillis() + " ms (Transport.deadline)");
        this.timeout = timeout;
    }

    /** The timeout the passed deadline was set with. */
    public Duration timeout() {
        return timeout;
    }
}
