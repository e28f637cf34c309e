package flowtest.conformance.exceptions;

import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** {@code FutureTask.get(timeout)} (a future without callbacks) times out with the JDK's exception. */
public final class FutureTaskGetTimesOut implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        Future<String> never = new FutureTask<>(() -> "never run");
        try {
            return never.get(20, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return "timed out: " + e.getMessage() + ", zero timeout: " + zero(never);
        }
    }

    private static String zero(Future<String> f) throws Exception {
        try {
            return f.get(0, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return String.valueOf(e.getMessage());
        }
    }
}
