/** Fixtures: the JVM's helpful {@code NullPointerException} messages around rewritten calls. */
package flowtest.conformance.nullmessages;
