/** Fixtures: deep recursion through suspending frames, with a {@code StackOverflowError} caught at the top. */
package flowtest.conformance.overflow;
