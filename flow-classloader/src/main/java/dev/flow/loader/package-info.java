/**
 * The {@link dev.flow.loader.ContinuationClassLoader}: loads protocol classes so that their blocking
 * calls suspend the flow instead of the thread.
 */
package dev.flow.loader;
