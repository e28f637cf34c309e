package dev.flow.samples.redis;

/**
 * The limits of a RESP session, validated by {@link RedisProtocol}; a request over one gets an
 * {@code -ERR Protocol error: ...} reply and its session is closed.
 *
 * @param maxBulkBytes the longest bulk string in a request, in bytes (default 16 MiB)
 * @param maxMultibulk the most arguments in one multibulk request (default 1,048,576)
 * @param maxInlineBytes the longest line: an inline command or a length line (default 64 KiB)
 */
public record RedisLimits(int maxBulkBytes, int maxMultibulk, int maxInlineBytes) {
}
