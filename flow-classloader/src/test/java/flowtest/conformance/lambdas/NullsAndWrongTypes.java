package flowtest.conformance.lambdas;

import flowtest.support.Async;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * A {@code null} where a method reference unboxes or where its receiver goes, and a raw call with an
 * argument of the wrong type: the same exceptions and messages as the JDK's lambda classes give
 * (the targets await, so each site is desugared).
 */
public final class NullsAndWrongTypes implements Callable<Object> {

    static String takesLong(long x) throws Exception {
        return "long:" + Async.later(x).get();
    }

    String echo(String s) throws Exception {
        return Async.later(s).get();
    }

    static int length(String s) throws Exception {
        return Async.later(s).get().length();
    }

    private static String attempt(Sup<?> s) {
        try {
            return String.valueOf(s.get());
        } catch (Exception e) {
            return e.getClass().getName() + ": " + e.getMessage();
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    @Override
    public Object call() throws Exception {
        Fn<Integer, String> unbox = NullsAndWrongTypes::takesLong;
        Fn2<NullsAndWrongTypes, String, String> unbound = NullsAndWrongTypes::echo;
        Fn<String, Integer> typed = NullsAndWrongTypes::length;
        Fn raw = typed;
        List<String> out = new ArrayList<>();
        out.add(attempt(() -> unbox.apply(null)));
        out.add(attempt(() -> unbound.apply(null, "x")));
        out.add(attempt(() -> raw.apply(42)));
        out.add(attempt(() -> unbox.apply(7)));
        return String.join(" | ", out);
    }
}
