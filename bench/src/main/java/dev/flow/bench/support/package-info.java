/** Helpers of the JMH benchmarks, outside the instrumented scope: awaitables and hand-off points. */
package dev.flow.bench.support;
