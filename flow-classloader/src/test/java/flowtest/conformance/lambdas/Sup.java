package flowtest.conformance.lambdas;

/** An in-scope supplier. */
@FunctionalInterface
public interface Sup<T> {
    /** Supplies a value. */
    T get() throws Exception;
}
