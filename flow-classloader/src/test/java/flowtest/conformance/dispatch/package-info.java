/**
 * Dispatch conformance fixtures: in-scope implementations of JDK interfaces and abstract JDK classes
 * whose methods await, called from in-scope code (these must suspend) and called back by JDK code
 * (these pin).
 */
package flowtest.conformance.dispatch;
