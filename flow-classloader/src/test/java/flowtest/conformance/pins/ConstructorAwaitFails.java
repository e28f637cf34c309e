package flowtest.conformance.pins;

import flowtest.support.Async;
import java.io.IOException;
import java.util.concurrent.Callable;

/** A constructor's await fails; the caller catches it and the flow awaits again, outside any constructor. */
public final class ConstructorAwaitFails implements Callable<Object> {

    static final class Connection {
        final String greeting;

        Connection() {
            greeting = Async.<String>failLater(new IOException("refused")).join();
        }
    }

    @Override
    public Object call() throws Exception {
        String first;
        try {
            first = new Connection().greeting;
        } catch (RuntimeException e) {
            first = "no connection";
        }
        return first + ", then " + Async.later(7).get() + " and " + Async.later(-7).get();
    }
}
