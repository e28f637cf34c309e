/**
 * Flow's suspendable versions of JDK classes that otherwise pin a flow: owner-based locks owned by
 * the flow ({@link dev.flow.jdk.FlowReentrantLock}, {@link dev.flow.jdk.FlowReentrantReadWriteLock})
 * and {@code java.io} decorators. The {@code ContinuationClassLoader} substitutes them for the JDK
 * classes at each {@code new} in loaded code and re-parents in-scope subclasses onto them, and defines
 * its own instrumented copy of each, so that their waits are suspension points. Not an API: public only
 * because loaded code names them.
 */
package dev.flow.jdk;
