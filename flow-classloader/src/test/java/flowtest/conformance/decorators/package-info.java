/**
 * Fixtures: JDK decorators (readers, writers, buffered, data, pushback and print streams, their in-scope
 * subclasses, {@code DataInputStream}s made outside the scope, {@code transferTo}) around a transport's
 * stream views.
 */
package flowtest.conformance.decorators;
