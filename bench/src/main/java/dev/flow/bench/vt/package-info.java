/**
 * The virtual-thread references (JDK 21+): the same loop shapes and stack depths as the flows of
 * {@code dev.flow.bench.flows}, written with {@code Thread.yield()} and {@code LockSupport.park/unpark}.
 * Loaded normally; started through {@link dev.flow.bench.VirtualThreads}.
 */
package dev.flow.bench.vt;
