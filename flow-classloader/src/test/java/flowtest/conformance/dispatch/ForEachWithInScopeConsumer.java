package flowtest.conformance.dispatch;

import flowtest.support.Async;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/** {@code List.forEach} calls an in-scope consumer that awaits: a JDK frame stands in between. */
public final class ForEachWithInScopeConsumer implements Callable<Object> {

    static final class Sum implements Consumer<Integer> {
        int total;

        @Override
        public void accept(Integer i) {
            total += Async.later(i).join();
        }
    }

    @Override
    public Object call() {
        Sum s = new Sum();
        List.of(1, 2, 3).forEach(s);
        return s.total;
    }
}
