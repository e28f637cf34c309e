package flowtest.scheduler;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/**
 * Waits for {@code in}, logs {@code "<name> on <thread>"} (with " interrupted" if the thread's
 * interrupt status is set), completes every future of {@code outs}, then logs {@code "<name> done"}.
 */
public class Relay implements Callable<Object> {
    private final String name;
    private final CompletableFuture<String> in;
    private final List<CompletableFuture<String>> outs;
    private final Queue<String> log;

    public Relay(String name, CompletableFuture<String> in, List<CompletableFuture<String>> outs, Queue<String> log) {
        this.name = name;
        this.in = in;
        this.outs = outs;
        this.log = log;
    }

    @Override
    public Object call() {
        String value = in.join();
        Thread t = Thread.currentThread();
        log.add(name + " on " + t.getName() + (t.isInterrupted() ? " interrupted" : ""));
        for (CompletableFuture<String> f : outs) {
            f.complete(value);
        }
        log.add(name + " done");
        return value;
    }
}
