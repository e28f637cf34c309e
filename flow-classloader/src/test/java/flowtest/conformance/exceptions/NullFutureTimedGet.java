package flowtest.conformance.exceptions;

import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** {@code get(timeout)} on a null future: the helpful message names the null local. */
public final class NullFutureTimedGet implements Callable<Object> {

    private static Future<String> none() {
        return null;
    }

    @Override
    public Object call() throws Exception {
        Future<String> pending = none();
        return pending.get(1, TimeUnit.SECONDS);
    }
}
