/** Fixtures: JDK decorators ({@code DataInputStream}, readers, {@code transferTo}) around a transport's stream views. */
package flowtest.conformance.decorators;
