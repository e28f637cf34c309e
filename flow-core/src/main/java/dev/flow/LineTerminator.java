package dev.flow;

/** Where {@link Transport#readLine(LineTerminator, int)} ends a line. */
public enum LineTerminator {
    /** A line ends at "\n"; a "\r" right before it (or at end of stream) is dropped. The default. */
    LF_OR_CRLF,
    /** A line ends only at "\r\n"; a bare "\n" stays in the line. For strict HTTP/RESP parsers. */
    CRLF
}
