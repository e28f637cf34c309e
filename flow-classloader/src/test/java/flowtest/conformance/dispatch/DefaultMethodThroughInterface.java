package flowtest.conformance.dispatch;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/** An in-scope interface's default method overrides {@code Supplier.get} and awaits; called through {@code Supplier}. */
public final class DefaultMethodThroughInterface implements Callable<Object> {

    interface RemoteSupplier extends Supplier<String> {
        String key();

        @Override
        default String get() {
            return Async.later(key().toUpperCase()).join();
        }
    }

    static final class Named implements RemoteSupplier {
        @Override
        public String key() {
            return "name";
        }
    }

    @Override
    public Object call() {
        Supplier<String> s = new Named();
        return s.get() + s.get().length();
    }
}
