package dev.flow.bench.flows;

import dev.flow.jdk.FlowMonitor;
import java.util.concurrent.Callable;

/**
 * Takes and releases a {@link FlowMonitor} {@code pairs} times, uncontended, the way a {@code synchronized
 * (lock)} block of an in-scope {@code Writer} subclass does once the loader has rewritten it; with {@code
 * nested}, takes a second monitor inside the first each time, as Commons Net's {@code
 * DotTerminatedMessageWriter.write(int)} does around {@code FlowBufferedWriter.write(int)}. Loaded through the
 * {@code ContinuationClassLoader}, it uses the loader's instrumented copy of the monitor. Not thread-safe: one
 * caller at a time.
 */
public final class MonitorLoop implements Callable<Object> {

    private final Object outer = FlowMonitor.create();
    private final Object inner = FlowMonitor.create();
    private final int pairs;
    private final boolean nested;
    private long count;

    public MonitorLoop(int pairs, boolean nested) {
        this.pairs = pairs;
        this.nested = nested;
    }

    @Override
    public Object call() {
        for (int i = 0; i < pairs; i++) {
            FlowMonitor.enter(outer);
            try {
                if (nested) {
                    FlowMonitor.enter(inner);
                    try {
                        count++;
                    } finally {
                        FlowMonitor.exit(inner);
                    }
                } else {
                    count++;
                }
            } finally {
                FlowMonitor.exit(outer);
            }
        }
        return count;
    }
}
