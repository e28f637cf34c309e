/**
 * Code for the raw Tascalate JavaFlow reference: methods marked {@code @continuable}, instrumented
 * by {@link dev.flow.bench.RawJavaflowLoader} with JavaFlow's own transformer, no Flow involved.
 */
package dev.flow.bench.raw;
