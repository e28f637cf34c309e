package flowtest.conformance.lambdas;

import flowtest.support.Async;
import java.util.concurrent.Callable;

/** {@code this::name} on a private method, with a subclass declaring its own {@code name()}. */
public final class PrivateMethodReferenceIsNotOverridden implements Callable<Object> {

    static class Base {
        private String name() {
            return "base";
        }

        private String slowName() throws Exception {
            return Async.later("slow-base").get();
        }

        String both() throws Exception {
            Sup<String> a = this::name;
            Sup<String> b = this::slowName;
            return a.get() + "," + b.get();
        }
    }

    static final class Sub extends Base {
        String name() {
            return "sub";
        }

        String slowName() {
            return "slow-sub";
        }
    }

    @Override
    public Object call() throws Exception {
        return new Sub().both() + "|" + new Sub().name() + "," + new Sub().slowName();
    }
}
