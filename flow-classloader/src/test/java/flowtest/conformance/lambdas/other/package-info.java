/** A second package for the lambdas category: protected members seen from a subclass elsewhere. */
package flowtest.conformance.lambdas.other;
