/** Fixtures: {@code super.m()} of JDK methods that are suspension points as virtual calls ({@code invokespecial} stays non-virtual). */
package flowtest.conformance.supercalls;
