package flowtest.conformance.lambdas;

import flowtest.support.Async;
import java.util.concurrent.Callable;

/** Method references to private methods of nestmates ({@code Nested::priv}, {@code Outer.this::priv}, {@code inner::hidden}), each target awaiting. */
public final class NestmatePrivateReferencesAwaiting implements Callable<Object> {

    private final String name = "outer";

    private String priv() throws Exception {
        return Async.later(name).get() + "-priv";
    }

    static final class Nested {
        private static String priv(String s) throws Exception {
            return "nested-" + Async.later(s).get();
        }

        private String hidden() throws Exception {
            return Async.later("nested-hidden").get();
        }
    }

    final class Inner {
        String viaOuter() throws Exception {
            Sup<String> s = NestmatePrivateReferencesAwaiting.this::priv;
            return s.get();
        }
    }

    @Override
    public Object call() throws Exception {
        Fn<String, String> f = Nested::priv;
        Nested inner = new Nested();
        Sup<String> h = inner::hidden;
        Fn<Nested, String> u = Nested::hidden;
        return f.apply("x") + "," + h.get() + "," + u.apply(inner) + "," + new Inner().viaOuter();
    }
}
