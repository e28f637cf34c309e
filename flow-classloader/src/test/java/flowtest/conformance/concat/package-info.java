/** Fixtures: string concatenations ({@code makeConcatWithConstants}) with wide operands before an await. */
package flowtest.conformance.concat;
