/**
 * Flow's runtime: scheduler core, flow state, pinning and the suspendable forms of blocking calls.
 * Not an API: public only so that classes defined by a {@code ContinuationClassLoader} can reach it.
 */
package dev.flow.internal;
