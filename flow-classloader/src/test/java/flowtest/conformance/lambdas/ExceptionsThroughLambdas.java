package flowtest.conformance.lambdas;

import flowtest.support.Async;
import java.io.IOException;
import java.util.concurrent.Callable;

/** A checked exception thrown by a lambda body after an await, and an unchecked one by a method reference. */
public final class ExceptionsThroughLambdas implements Callable<Object> {

    static String fail(String s) {
        throw new IllegalArgumentException("bad: " + s);
    }

    @Override
    public Object call() throws Exception {
        Fn<String, String> ref = ExceptionsThroughLambdas::fail;
        String caught;
        try {
            caught = ref.apply("x");
        } catch (IllegalArgumentException e) {
            caught = e.getMessage();
        }
        String first = caught;
        Sup<String> body = () -> {
            String v = Async.later("v").get();
            throw new IOException("failed after " + v + ", " + first);
        };
        return body.get();
    }
}
