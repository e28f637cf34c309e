/**
 * Plain blocking protocol code that the continuation-mode tests load through a {@code
 * ContinuationClassLoader}. Outcomes are reported through JDK types passed in, never through static
 * state (each loader has its own copy of these classes).
 */
package flowtest.mina;
