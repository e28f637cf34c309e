package flowtest.conformance.pins;

import flowtest.support.Async;
import java.io.IOException;
import java.util.concurrent.Callable;

/**
 * The first and second use of a class whose static initializer's await fails, described with their
 * causes. Only its first run in a class loader gives the initializer's error, so it is run once per
 * loader, by {@code StaticInitializerFailureTest}.
 */
public final class FirstUseOfFailedClass implements Callable<Object> {

    static final class Settings {
        static final String VALUE = Async.<String>failLater(new IOException("no settings")).join();

        private Settings() {
        }
    }

    private static String use() {
        try {
            return Settings.VALUE;
        } catch (LinkageError e) {
            Throwable c = e.getCause();
            return e.getClass().getName() + ": " + e.getMessage()
                    + (c == null || e instanceof NoClassDefFoundError ? "" : " <- " + c.getClass().getName() + ": " + c.getMessage());
        }
    }

    @Override
    public Object call() throws Exception {
        String outcome = use() + " / " + use();
        return outcome + ", then " + Async.later(13).get() + " and " + Async.later(-13).get();
    }
}
