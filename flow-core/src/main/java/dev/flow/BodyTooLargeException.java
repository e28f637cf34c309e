package dev.flow;

import java.io.IOException;

/**
 * Thrown by {@link Transport#readDotBody(java.io.OutputStream, long)} when a body is longer than its
 * limit. The whole body has been read (and the part past the limit discarded), so the transport is
 * positioned after it: the protocol can answer (SMTP: {@code 552}) and go on with the session.
 */
public final class BodyTooLargeException extends IOException {
    private static final long serialVersionUID = 1L;

    private final long size;
    private final long limit;

    /**
     * Creates the exception.
     *
     * @param size the size of the whole body, in bytes after unstuffing
     * @param limit the limit it exceeded
     */
    public BodyTooLargeException(long size, long limit) {
        super("body size: " + size + " bytes (expected: <= " + limit + ")");
        this.size = size;
        this.limit = limit;
    }

    /** The size of the whole body in bytes, after unstuffing. */
    public long size() {
        return size;
    }

    /** The limit the body exceeded. */
    public long limit() {
        return limit;
    }
}
