/**
 * An HTTP/1.1 sample server: {@link dev.flow.samples.http.HttpServer} is the command line; the session
 * code is in {@code protocol}, the package loaded through the {@code ContinuationClassLoader} in
 * continuation mode.
 */
package dev.flow.samples.http;
