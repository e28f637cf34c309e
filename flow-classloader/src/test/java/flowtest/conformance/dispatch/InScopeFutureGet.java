package flowtest.conformance.dispatch;

import flowtest.support.Async;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An in-scope {@code Future} whose {@code get} awaits another future, called through its own type and
 * through {@code Future}: a call that is both a suspension point and an in-scope override.
 */
public final class InScopeFutureGet implements Callable<Object> {

    static final class Scaled implements Future<Integer> {
        private final CompletableFuture<Integer> inner;

        Scaled(int v) {
            inner = Async.later(v);
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            return false;
        }

        @Override
        public boolean isCancelled() {
            return false;
        }

        @Override
        public boolean isDone() {
            return inner.isDone();
        }

        @Override
        public Integer get() throws InterruptedException, ExecutionException {
            return inner.get() * 10;
        }

        @Override
        public Integer get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
            return inner.get(timeout, unit) * 10;
        }
    }

    @Override
    public Object call() throws Exception {
        Scaled own = new Scaled(1);
        Future<Integer> viaInterface = new Scaled(2);
        return own.get() + viaInterface.get();
    }
}
