/**
 * Flow's suspendable versions of JDK classes that otherwise pin a flow: owner-based locks owned by
 * the flow ({@link dev.flow.jdk.FlowReentrantLock}, {@link dev.flow.jdk.FlowReentrantReadWriteLock})
 * and the {@code java.io} decorators (readers, writers, buffered, data, pushback and print streams,
 * {@link dev.flow.jdk.FlowLineNumberReader}). The {@code ContinuationClassLoader} substitutes them for
 * the JDK classes at each {@code new} in loaded code, re-parents in-scope subclasses onto them, sends
 * calls of {@code DataInputStream}'s and {@code DataOutputStream}'s final methods to {@link
 * dev.flow.jdk.FlowData}, and defines its own instrumented copy of each, so that their waits are
 * suspension points. Not an API: public only because loaded code names them.
 */
package dev.flow.jdk;
