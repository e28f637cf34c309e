/**
 * Conformance fixtures: ordinary Java patterns, one package per category, run by the conformance
 * suite loaded normally and through the {@code ContinuationClassLoader}. Classes here keep no
 * mutable static state.
 */
package flowtest.conformance;
