/**
 * Plain blocking protocol code the load driver serves: loaded through the {@code
 * ContinuationClassLoader} by name in continuation mode and directly otherwise.
 */
package dev.flow.bench.load.handlers;
