package flowtest.conformance.lambdas;

/** An in-scope primitive function whose implementations may need widening. */
@FunctionalInterface
public interface IntToLong {
    /** Applies the function. */
    long apply(int x) throws Exception;
}
