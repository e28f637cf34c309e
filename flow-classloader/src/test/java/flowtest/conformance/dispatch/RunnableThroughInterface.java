package flowtest.conformance.dispatch;

import flowtest.support.Async;
import java.util.concurrent.Callable;

/** An in-scope runnable that awaits, run through {@code Runnable.run}. */
public final class RunnableThroughInterface implements Callable<Object> {

    static final class Accumulate implements Runnable {
        final StringBuilder out = new StringBuilder();

        @Override
        public void run() {
            out.append(Async.later("ran").join());
        }
    }

    @Override
    public Object call() {
        Accumulate a = new Accumulate();
        Runnable r = a;
        r.run();
        r.run();
        return a.out.toString();
    }
}
