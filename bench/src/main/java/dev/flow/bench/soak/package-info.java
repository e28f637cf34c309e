/**
 * The soak program: a {@code FlowServer} under mixed load with faults for a bounded time, checking
 * that no worker, flow, session, file descriptor or heap is lost. See {@link dev.flow.bench.soak.Soak}.
 */
package dev.flow.bench.soak;
