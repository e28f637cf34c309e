/**
 * Blocking helpers shared by the sample protocols' session code. The samples' launcher loads this
 * package through the {@code ContinuationClassLoader} together with the protocol package, so that
 * the {@code Transport} calls made here suspend like the protocol's own.
 */
package dev.flow.samples.wire;
