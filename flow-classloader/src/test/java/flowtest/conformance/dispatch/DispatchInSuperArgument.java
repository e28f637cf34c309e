package flowtest.conformance.dispatch;

import java.util.concurrent.Callable;
import java.util.function.Supplier;

/** An in-scope supplier that awaits, called through {@code Supplier.get} in the argument of {@code super(...)}. */
public final class DispatchInSuperArgument implements Callable<Object> {

    static final class Refusal extends Exception {
        Refusal(Supplier<Integer> code) {
            super("code " + code.get() * 3);
        }
    }

    @Override
    public Object call() {
        return new Refusal(new SupplierThroughInterface.Later()).getMessage();
    }
}
