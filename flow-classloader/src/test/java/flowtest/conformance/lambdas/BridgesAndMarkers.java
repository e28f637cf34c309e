package flowtest.conformance.lambdas;

import flowtest.support.Async;
import java.util.concurrent.Callable;

/** Lambdas needing bridge methods (a specialised generic interface) and intersection casts with a marker. */
public final class BridgesAndMarkers implements Callable<Object> {

    static String shout(String s) {
        return s.toUpperCase();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    @Override
    public Object call() throws Exception {
        StrFn special = BridgesAndMarkers::shout;
        Fn<String, String> general = special;
        Fn raw = special;
        StrFn awaiting = s -> Async.later(s + "!").get();
        Fn<String, String> awaitingGeneral = awaiting;
        Sup<String> marked = (Sup<String> & Marker) () -> "marked";
        String bad;
        try {
            raw.apply(1);
            bad = "no exception";
        } catch (ClassCastException e) {
            bad = "ClassCastException";
        }
        return special.apply("a") + "," + general.apply("b") + "," + raw.apply("c") + "," + awaiting.apply("d") + ","
                + awaitingGeneral.apply("e") + "," + marked.get() + "," + (marked instanceof Marker) + "," + bad;
    }
}
