package flowtest.conformance.lambdas;

/** An in-scope two-argument function. */
@FunctionalInterface
public interface Fn2<A, B, R> {
    /** Applies the function. */
    R apply(A a, B b) throws Exception;
}
