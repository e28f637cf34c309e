package flowtest.scheduler;

import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/** Waits for {@code in}, logs {@code "<name> on <thread>"}, closes {@code toClose}, then logs {@code "<name> done"}. */
public class CloseOnWake implements Callable<Object> {
    private final String name;
    private final CompletableFuture<String> in;
    private final AutoCloseable toClose;
    private final Queue<String> log;

    public CloseOnWake(String name, CompletableFuture<String> in, AutoCloseable toClose, Queue<String> log) {
        this.name = name;
        this.in = in;
        this.toClose = toClose;
        this.log = log;
    }

    @Override
    public Object call() throws Exception {
        String value = in.join();
        log.add(name + " on " + Thread.currentThread().getName());
        toClose.close();
        log.add(name + " done");
        return value;
    }
}
