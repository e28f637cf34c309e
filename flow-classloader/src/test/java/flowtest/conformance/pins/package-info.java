/**
 * Pin conformance fixtures: awaits inside frames that cannot be captured (constructors, static
 * initializers, monitors, reflection, JDK callbacks), how they exit, and what the flow can do after.
 */
package flowtest.conformance.pins;
