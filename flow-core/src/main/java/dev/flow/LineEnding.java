package dev.flow;

/**
 * What ended a line read by {@link Transport#readLineBytes(LineTerminator, int)}: lets a protocol
 * that requires {@code "\r\n"} (SMTP, HTTP, RESP) tell a bare {@code "\n"} and answer it at once,
 * instead of waiting for a {@code "\r\n"} the peer will never send.
 */
public enum LineEnding {
    /** The line ended at {@code "\r\n"}. */
    CRLF,
    /** The line ended at a {@code "\n"} not preceded by {@code "\r"} (only with {@link LineTerminator#LF_OR_CRLF}). */
    LF,
    /** The stream ended after the line's last byte, without a terminator. */
    END_OF_STREAM
}
