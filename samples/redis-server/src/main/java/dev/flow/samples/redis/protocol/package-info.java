/**
 * The RESP2 session code in plain blocking style. In continuation mode this package is loaded through
 * the {@code ContinuationClassLoader}: every {@code Transport} call below suspends the session instead
 * of blocking a thread.
 */
package dev.flow.samples.redis.protocol;
