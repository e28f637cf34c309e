package flowtest.conformance.dispatch;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.function.Function;

/** An in-scope function that awaits, applied through {@code Function.apply} and {@code andThen}. */
public final class FunctionThroughInterface implements Callable<Object> {

    static final class Lookup implements Function<String, Integer> {
        @Override
        public Integer apply(String key) {
            return Async.later(key.length()).join();
        }
    }

    @Override
    public Object call() {
        Function<String, Integer> f = new Lookup();
        return f.apply("four") + f.apply("seven");
    }
}
