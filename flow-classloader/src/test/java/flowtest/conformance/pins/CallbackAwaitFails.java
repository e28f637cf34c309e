package flowtest.conformance.pins;

import flowtest.support.Async;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.Callable;

/** A JDK callback's await fails out of {@code List.forEach}; the flow awaits again afterwards. */
public final class CallbackAwaitFails implements Callable<Object> {
    private final StringBuilder seen = new StringBuilder();

    @Override
    public Object call() throws Exception {
        try {
            List.of("a", "b").forEach(s -> seen.append(Async.<String>failLater(new IOException(s)).join()));
        } catch (RuntimeException e) {
            seen.append("failed");
        }
        return seen + ", then " + Async.later(11).get() + " and " + Async.later(-11).get();
    }
}
