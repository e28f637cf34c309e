package dev.flow;

import java.io.IOException;

/** Thrown by {@link Transport#readLine()} when a line is longer than the configured limit. */
public final class LineTooLongException extends IOException {
    private static final long serialVersionUID = 1L;

    private final long length;
    private final int limit;

    /**
     * Creates the exception.
     *
     * @param length the length seen so far (at least {@code limit + 1})
     * @param limit the configured maximum line length
     */
    public LineTooLongException(long length, int limit) {
        super("line length: " + length + " (expected: <= maxLineLength " + limit + ")");
        this.length = length;
        this.limit = limit;
    }

    /** The length seen when the limit was exceeded. */
    public long length() {
        return length;
    }

    /** The configured maximum line length. */
    public int limit() {
        return limit;
    }
}
