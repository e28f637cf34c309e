package flowtest.conformance.lambdas;

import flowtest.support.Async;
import java.util.concurrent.Callable;

/** Method references to varargs methods, called with a fixed arity and with an array. */
public final class VarargsReferences implements Callable<Object> {

    static String join(String... parts) throws Exception {
        return parts.length + ":" + Async.later(String.join("+", parts)).get();
    }

    static String slowJoin(String first, String... rest) throws Exception {
        return Async.later(first).get() + rest.length;
    }

    @Override
    public Object call() throws Exception {
        Fn2<String, String, String> two = VarargsReferences::join;
        Fn<String[], String> array = VarargsReferences::join;
        Sup<String> none = VarargsReferences::join;
        Fn2<String, String, String> slow = VarargsReferences::slowJoin;
        Fn2<String, Object[], String> format = String::format;
        return two.apply("a", "b") + "," + array.apply(new String[] {"x", "y", "z"}) + "," + none.get() + ","
                + slow.apply("s", "t") + "," + format.apply("%s-%s", new Object[] {1, 2});
    }
}
