package flowtest.conformance.lambdas;

/** Specialises {@link Fn}: lambdas of this type need a bridge method. */
@FunctionalInterface
public interface StrFn extends Fn<String, String> {
    @Override
    String apply(String s) throws Exception;
}
