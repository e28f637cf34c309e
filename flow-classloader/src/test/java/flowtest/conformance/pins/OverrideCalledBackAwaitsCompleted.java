package flowtest.conformance.pins;

import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/** {@code Map.forEach} calls an in-scope consumer that awaits a future that is already complete. */
public final class OverrideCalledBackAwaitsCompleted implements Callable<Object> {

    static final class Weigh implements BiConsumer<String, Integer> {
        long weight;

        @Override
        public void accept(String key, Integer value) {
            weight += key.length() * (long) CompletableFuture.completedFuture(value).join();
        }
    }

    @Override
    public Object call() {
        Weigh w = new Weigh();
        Map.of("ab", 3).forEach(w);
        return w.weight;
    }
}
