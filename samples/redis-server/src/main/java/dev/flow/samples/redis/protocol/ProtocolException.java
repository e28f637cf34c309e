package dev.flow.samples.redis.protocol;

/** A request that breaks RESP framing or a limit: the session replies {@code -ERR Protocol error: ...} and closes. */
final class ProtocolException extends Exception {
    private static final long serialVersionUID = 1L;

    ProtocolException(String message) {
        super(message);
    }
}
