package flowtest.conformance.dispatch;

import flowtest.support.Async;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** In-scope callables that await, called through {@code Callable.call}. */
public final class CallableThroughInterface implements Callable<Object> {

    static final class Fetch implements Callable<String> {
        private final String value;

        Fetch(String value) {
            this.value = value;
        }

        @Override
        public String call() throws Exception {
            return Async.later(value).get();
        }
    }

    @Override
    public Object call() throws Exception {
        List<Callable<String>> tasks = List.of(new Fetch("a"), new Fetch("b"));
        List<String> out = new ArrayList<>();
        for (Callable<String> t : tasks) {
            out.add(t.call());
        }
        return out;
    }
}
