/** Fixtures the bench's tests load through a {@code ContinuationClassLoader}. */
package flowtest.bench;
