package flowtest.conformance.lambdas;

import flowtest.support.Async;
import java.util.concurrent.Callable;

/** As {@link PrivateLambdaBodyIsNotOverridden}, each lambda body awaiting. */
public final class PrivateLambdaBodyIsNotOverriddenAwaiting implements Callable<Object> {

    static class Base {
        final String tag = "base";

        String run() throws Exception {
            Sup<String> s = () -> Async.later(tag).get() + "-lambda";
            return s.get();
        }
    }

    static final class Sub extends Base {
        final String own = "sub";

        @Override
        String run() throws Exception {
            Sup<String> s = () -> Async.later(own).get() + "-lambda";
            return s.get() + "/" + super.run();
        }
    }

    @Override
    public Object call() throws Exception {
        return new Sub().run() + "|" + new Base().run();
    }
}
