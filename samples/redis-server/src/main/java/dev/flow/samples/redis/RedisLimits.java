package dev.flow.samples.redis;

/**
 * The limits of a RESP session, validated by {@link RedisProtocol}; a request over one gets an
 * {@code -ERR Protocol error: ...} reply and its session is closed.
 *
 * @param maxBulkBytes the longest bulk string in a request, in bytes (default 16 MiB)
 * @param maxMultibulk the most arguments in one multibulk request (default 1,048,576)
 * @param maxInlineBytes the longest line: an inline command or a length line (default 64 KiB)
 * @param maxCommandBytes the most bytes of bulk strings in one command, all arguments together (default
 *     32 MiB): the session holds them until the command has run, so without it one command could hold
 *     {@code maxMultibulk} times {@code maxBulkBytes}
 */
public record RedisLimits(int maxBulkBytes, int maxMultibulk, int maxInlineBytes, int maxCommandBytes) {
}
