package flowtest.conformance.pins;

import flowtest.support.Async;
import java.io.IOException;
import java.util.concurrent.Callable;

/**
 * A static initializer's await fails: the first use of the class fails, later uses see it
 * unusable, and the flow awaits again afterwards. (Which use is the first depends on how often the
 * class was used before, so only the later use's error is part of the result.)
 */
public final class StaticInitializerAwaitFails implements Callable<Object> {

    static final class Config {
        static final String VALUE = Async.<String>failLater(new IOException("no config")).join();

        private Config() {
        }
    }

    private static String use() {
        try {
            return Config.VALUE;
        } catch (LinkageError e) {
            return e.getClass().getName() + ": " + e.getMessage();
        }
    }

    @Override
    public Object call() throws Exception {
        String first = use();
        String second = use();
        return first.startsWith("java.lang.") + " / " + second + ", then " + Async.later(8).get() + " and " + Async.later(-8).get();
    }
}
