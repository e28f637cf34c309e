package flowtest.conformance.concat;

import flowtest.support.Async;
import java.util.concurrent.Callable;

/** Wide operands, then a call that cannot suspend on the result of a static call, in a method that awaits. */
public final class PlainCallAfterWideOperands implements Callable<Object> {

    static String label(Object o) {
        return " " + o + " ";
    }

    @Override
    public Object call() throws Exception {
        long a = 7;
        double b = 0.5;
        long c = 1L << 40;
        String s = "S" + a + b + c + label(a).trim() + label(b).length() + Async.later("!").get();
        return s + a + b + c;
    }
}
