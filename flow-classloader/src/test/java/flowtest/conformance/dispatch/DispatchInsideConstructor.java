package flowtest.conformance.dispatch;

import java.util.concurrent.Callable;
import java.util.function.Supplier;

/** An in-scope supplier that awaits, called through {@code Supplier.get} inside a constructor. */
public final class DispatchInsideConstructor implements Callable<Object> {

    static final class Holder {
        final int value;

        Holder(Supplier<Integer> s) {
            value = s.get();
        }
    }

    @Override
    public Object call() {
        return new Holder(new SupplierThroughInterface.Later()).value;
    }
}
