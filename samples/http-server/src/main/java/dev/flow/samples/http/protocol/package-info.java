/**
 * The HTTP/1.1 session code in plain blocking style. In continuation mode this package is loaded
 * through the {@code ContinuationClassLoader}: every {@code Transport} call and {@code Thread.sleep}
 * below suspends the session instead of blocking a thread.
 */
package dev.flow.samples.http.protocol;
