/** Exception texts the JDK and the JVM produce at suspension points: timeouts, helpful null-pointer messages. */
package flowtest.conformance.exceptions;
