package flowtest.conformance.lambdas;

import java.util.concurrent.Callable;

/** A lambda body capturing {@code this} in a base class and one of the same javac name in a subclass. */
public final class PrivateLambdaBodyIsNotOverridden implements Callable<Object> {

    static class Base {
        final String tag = "base";

        String run() throws Exception {
            Sup<String> s = () -> tag + "-lambda";
            return s.get();
        }
    }

    static final class Sub extends Base {
        final String own = "sub";

        @Override
        String run() throws Exception {
            Sup<String> s = () -> own + "-lambda";
            return s.get() + "/" + super.run();
        }
    }

    @Override
    public Object call() throws Exception {
        return new Sub().run() + "|" + new Base().run();
    }
}
