package flowtest.conformance.lambdas;

/** An in-scope generic functional interface. */
@FunctionalInterface
public interface Fn<A, R> {
    /** Applies the function. */
    R apply(A a) throws Exception;
}
