package flowtest.conformance.lambdas;

import flowtest.support.Async;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** Static, bound, unbound and super method references whose targets await. */
public final class ReceiverKindsAwaiting implements Callable<Object> {

    static class Base {
        String who() throws Exception {
            return Async.later("base").get();
        }
    }

    static final class Sub extends Base {
        @Override
        String who() throws Exception {
            return Async.later("sub").get();
        }

        String both() throws Exception {
            Sup<String> sup = super::who;
            Sup<String> own = this::who;
            return sup.get() + "/" + own.get();
        }
    }

    static String twice(String s) throws Exception {
        return Async.later(s + s).get();
    }

    String echo(String s) throws Exception {
        return Async.later(s).get();
    }

    @Override
    public Object call() throws Exception {
        List<String> out = new ArrayList<>();
        Fn<String, String> stat = ReceiverKindsAwaiting::twice;
        out.add(stat.apply("ab"));
        Fn<String, String> bound = this::echo;
        out.add(bound.apply("bound"));
        Fn2<ReceiverKindsAwaiting, String, String> unbound = ReceiverKindsAwaiting::echo;
        out.add(unbound.apply(this, "unbound"));
        out.add(new Sub().both());
        return String.join(",", out);
    }
}
