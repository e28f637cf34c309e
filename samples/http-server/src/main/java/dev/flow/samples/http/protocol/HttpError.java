package dev.flow.samples.http.protocol;

/** A request the server refuses with {@code status}; the response closes the connection. */
final class HttpError extends Exception {
    private static final long serialVersionUID = 1L;

    final int status;

    HttpError(int status, String message) {
        super(message);
        this.status = status;
    }
}
