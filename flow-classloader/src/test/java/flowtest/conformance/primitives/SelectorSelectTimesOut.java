package flowtest.conformance.primitives;

import java.nio.channels.Selector;
import java.util.concurrent.Callable;

/** {@code Selector.select(long)} with nothing registered: it waits inside the JDK for its timeout, reported. */
public final class SelectorSelectTimesOut implements Callable<Object> {
    @Override
    public Object call() throws Exception {
        try (Selector selector = Selector.open()) {
            return "selected " + selector.select(10) + ", now " + selector.selectNow();
        }
    }
}
