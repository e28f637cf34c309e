package flowtest.conformance.dispatch;

import java.util.concurrent.Callable;
import java.util.function.Supplier;

/** An in-scope supplier that awaits, called through {@code Supplier.get} in the argument of {@code super(...)}. */
public final class DispatchInSuperArgument implements Callable<Object> {

    static class Base {
        final int value;

        Base(int value) {
            this.value = value;
        }
    }

    static final class Derived extends Base {
        Derived(Supplier<Integer> s) {
            super(s.get() * 3);
        }
    }

    @Override
    public Object call() {
        return new Derived(new SupplierThroughInterface.Later()).value;
    }
}
