/** Conformance fixtures: the interrupt status belongs to the flow and is honoured at suspension points. */
package flowtest.conformance.interrupts;
