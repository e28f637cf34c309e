package flowtest.conformance.exceptions;

import java.util.concurrent.Callable;
import java.util.concurrent.Future;

/** {@code get()} on a null future: the JVM's helpful message names the null local. */
public final class NullFutureGet implements Callable<Object> {

    private static Future<String> none() {
        return null;
    }

    @Override
    public Object call() throws Exception {
        Future<String> pending = none();
        return pending.get();
    }
}
