/**
 * A Redis-protocol (RESP2) sample server: {@link dev.flow.samples.redis.RedisServer} is the command
 * line, {@link dev.flow.samples.redis.Store} the shared key space; the session code is in {@code
 * protocol}, the package loaded through the {@code ContinuationClassLoader} in continuation mode.
 */
package dev.flow.samples.redis;
