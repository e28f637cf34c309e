package dev.flow;

/**
 * How a session ended, as its handler records it with {@link Transport#recordOutcome(SessionOutcome)}
 * when it returns normally after handling the end itself (answering a timeout with {@code 421} and
 * closing, say). A server counts a handler that returns without recording one as completed.
 */
public enum SessionOutcome {
    /** The session ended as the protocol intends (the peer said goodbye). */
    COMPLETED,
    /** A timeout or a deadline ended the session. */
    TIMED_OUT,
    /** The peer broke the protocol (a bare LF, a line too long, a bad command sequence...) and the handler ended the session. */
    PROTOCOL_ERROR,
    /** The peer closed or reset the connection before the protocol's end. */
    CLOSED_BY_PEER
}
