package dev.flow.samples.http;

/**
 * The limits of an HTTP session, validated by {@link HttpProtocol}. A request over one gets its
 * status (414, 431, 413, 400) with {@code Connection: close} and its session is closed.
 *
 * @param maxHeaderBytes the longest request head: request line and header fields, in bytes (default 8 KiB)
 * @param maxBodyBytes the longest request body, in bytes (default 1 MiB)
 * @param maxSleepMillis the longest {@code GET /sleep?ms=N} (default 60,000)
 */
public record HttpLimits(int maxHeaderBytes, int maxBodyBytes, int maxSleepMillis) {
}
