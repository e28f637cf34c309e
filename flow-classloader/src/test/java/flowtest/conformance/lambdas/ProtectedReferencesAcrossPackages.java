package flowtest.conformance.lambdas;

import flowtest.conformance.lambdas.other.Base;
import java.util.concurrent.Callable;

/** {@code this::m} and {@code super::m} on protected methods of a superclass in another package. */
public final class ProtectedReferencesAcrossPackages extends Base implements Callable<Object> {

    @Override
    protected String plain() {
        return "own-plain";
    }

    @Override
    public Object call() throws Exception {
        Sup<String> a = this::plain;
        Sup<String> b = super::plain;
        Sup<String> c = this::slow;
        Sup<String> d = super::slow;
        return a.get() + "," + b.get() + "," + c.get() + "," + d.get();
    }
}
