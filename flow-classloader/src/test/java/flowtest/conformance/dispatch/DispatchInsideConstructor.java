package flowtest.conformance.dispatch;

import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * An in-scope supplier that awaits, called through {@code Supplier.get} inside a constructor, also
 * as the argument of a {@code new} (an uninitialised object on the operand stack).
 */
public final class DispatchInsideConstructor implements Callable<Object> {

    static final class Box {
        final int boxed;

        Box(int boxed) {
            this.boxed = boxed;
        }
    }

    static final class Holder {
        final int value;

        Holder(Supplier<Integer> s) {
            value = s.get() + new Box(s.get()).boxed;
        }
    }

    @Override
    public Object call() {
        return new Holder(new SupplierThroughInterface.Later()).value;
    }
}
