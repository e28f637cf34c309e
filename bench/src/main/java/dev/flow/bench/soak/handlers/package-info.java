/**
 * The soak program's protocol handler, plain blocking code loaded by name through the {@code
 * ContinuationClassLoader} in continuation mode.
 */
package dev.flow.bench.soak.handlers;
