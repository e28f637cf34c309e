package flowtest.conformance.lambdas;

/** A marker interface for intersection casts. */
public interface Marker {
}
