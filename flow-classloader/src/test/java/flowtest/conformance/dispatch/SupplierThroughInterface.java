package flowtest.conformance.dispatch;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/** An in-scope supplier that awaits, called through {@code Supplier.get}. */
public final class SupplierThroughInterface implements Callable<Object> {

    static final class Later implements Supplier<Integer> {
        @Override
        public Integer get() {
            return Async.later(41).join() + 1;
        }
    }

    @Override
    public Object call() {
        Supplier<Integer> s = new Later();
        return s.get() * 2;
    }
}
