package flowtest.conformance.dispatch;

import java.util.concurrent.Callable;
import java.util.function.Supplier;

/** An in-scope supplier that awaits, called through {@code Supplier.get} inside {@code synchronized}. */
public final class DispatchInsideMonitor implements Callable<Object> {
    private final Object lock = new Object();

    @Override
    public Object call() {
        Supplier<Integer> s = new SupplierThroughInterface.Later();
        synchronized (lock) {
            return s.get();
        }
    }
}
