package dev.flow;

import java.io.IOException;
import java.util.Objects;

/**
 * Thrown by {@link Transport#readLine()} when a line is longer than the configured limit, and by {@link
 * Transport#readLineBytes(LineTerminator, int)} when a line has more bytes than its {@code maxBytes}.
 * Immutable.
 */
public final class LineTooLongException extends IOException {
    private static final long serialVersionUID = 1L;

    private final long length;
    private final int limit;
    private final String limitName;

    /**
     * Creates the exception for a limit in characters set by {@code maxLineLength}.
     *
     * @param length the length seen so far (at least {@code limit + 1})
     * @param limit the configured maximum line length
     */
    public LineTooLongException(long length, int limit) {
        this(length, limit, "maxLineLength");
    }

    /**
     * Creates the exception for a limit named {@code limitName}, such as {@code "maxBytes"} for a limit in
     * bytes.
     *
     * @param length the length seen so far (at least {@code limit + 1})
     * @param limit the maximum line length
     * @param limitName the parameter or setting that gave the limit, for the message
     */
    public LineTooLongException(long length, int limit, String limitName) {
        super("line length: " + length + " (expected: <= " + Objects.requireNonNull(limitName, "limitName") + " " + limit
                + ")");
        this.length = length;
        this.limit = limit;
        this.limitName = limitName;
    }

    /** The length seen when the limit was exceeded. */
    public long length() {
        return length;
    }

    /** The maximum line length. */
    public int limit() {
        return limit;
    }

    /** The parameter or setting that gave the limit: {@code "maxLineLength"} or {@code "maxBytes"}. */
    public String limitName() {
        return limitName;
    }
}
