package flowtest.conformance.pins;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/** {@code List.forEach} calls an in-scope consumer that awaits futures that are already complete. */
public final class OverrideCalledBackAwaitsCompleted implements Callable<Object> {

    static final class Total implements Consumer<Integer> {
        int sum;

        @Override
        public void accept(Integer i) {
            sum += CompletableFuture.completedFuture(i).join();
        }
    }

    @Override
    public Object call() {
        Total t = new Total();
        List.of(4, 5).forEach(t);
        return t.sum;
    }
}
