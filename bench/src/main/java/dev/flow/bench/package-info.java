/**
 * Flow's micro-benchmarks: {@link dev.flow.bench.AwaitResumeBenchmark}, {@link
 * dev.flow.bench.InstrumentedFrameBenchmark} (JMH) and {@link dev.flow.bench.SuspendedFlowMemory} (a
 * main program). See {@code bench/README.md}.
 */
package dev.flow.bench;
