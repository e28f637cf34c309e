/**
 * Plain blocking-style code that the benchmarks load through the {@code ContinuationClassLoader}
 * (and, for the baselines, normally). Nothing here knows about continuations; the benchmark classes
 * refer to these classes only by name. Depth conventions: see each class.
 */
package dev.flow.bench.flows;
