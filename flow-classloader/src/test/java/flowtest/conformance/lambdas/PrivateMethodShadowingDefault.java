package flowtest.conformance.lambdas;

import flowtest.support.Async;
import java.util.concurrent.Callable;

/** A private method referenced by {@code this::hello} does not hide an interface default of the same name. */
public final class PrivateMethodShadowingDefault implements Callable<Object> {

    interface Greeter {
        default String hello() {
            return "default";
        }
    }

    static class Base {
        private String hello() {
            return "private";
        }

        private String slowHello() throws Exception {
            return Async.later("slow-private").get();
        }

        String viaReferences() throws Exception {
            Sup<String> s = this::hello;
            Sup<String> t = this::slowHello;
            return s.get() + "," + t.get();
        }
    }

    interface SlowGreeter {
        default String slowHello() {
            return "slow-default";
        }
    }

    static final class Sub extends Base implements Greeter, SlowGreeter {
    }

    @Override
    public Object call() throws Exception {
        Sub s = new Sub();
        Greeter g = s;
        SlowGreeter sg = s;
        return g.hello() + "," + sg.slowHello() + "," + s.viaReferences();
    }
}
