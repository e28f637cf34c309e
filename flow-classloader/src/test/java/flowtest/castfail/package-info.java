/**
 * A custom suspension point whose replacement returns the wrong type, awaited in a constructor: the
 * JVM's own {@code ClassCastException} leaves the pinned stretch.
 */
package flowtest.castfail;
