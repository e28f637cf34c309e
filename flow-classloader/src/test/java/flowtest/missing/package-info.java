/**
 * Suspendable methods that name classes the loader cannot find ({@code flowtest.absent}, hidden) or
 * array types: the continuation engine must instrument them all the same.
 */
package flowtest.missing;
