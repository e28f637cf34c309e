/**
 * Blocking JDK primitives and flow handles waited on by flows: queues, latches, semaphores, and the
 * primitives that cannot suspend (monitors' {@code wait}, conditions, barriers).
 */
package flowtest.conformance.primitives;
