package dev.flow;

import java.io.IOException;

/**
 * Thrown by a read when the memory it needs would take a bound shared by many sessions (a server's
 * {@code InputBudget}) past its limit: a {@link Transport#readFully(int)} growing its array, or one
 * under a {@link Transport#holdReads() hold}. The message names the read, the total in use and the
 * limit. The transport may still be open, so the protocol can answer (RESP: {@code -ERR}, HTTP: {@code
 * 503}) before it ends the session; the input of the refused request is not consumed.
 */
public final class MemoryBudgetExceededException extends IOException {
    private static final long serialVersionUID = 1L;

    private final long used;
    private final long limit;

    /**
     * Creates the exception.
     *
     * @param message the message, naming the read, {@code used} and {@code limit}
     * @param used the bytes in use when the read asked
     * @param limit the most bytes the read could have taken the total to
     */
    public MemoryBudgetExceededException(String message, long used, long limit) {
        super(message);
        this.used = used;
        this.limit = limit;
    }

    /** The bytes in use across the sessions of the bound when the read asked. */
    public long used() {
        return used;
    }

    /** The most bytes the read could have taken the total to. */
    public long limit() {
        return limit;
    }
}
