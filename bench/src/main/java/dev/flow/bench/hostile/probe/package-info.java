/** The handler {@link dev.flow.bench.hostile.LatencyProbe} runs as a flow (instrumented package). */
package dev.flow.bench.hostile.probe;
