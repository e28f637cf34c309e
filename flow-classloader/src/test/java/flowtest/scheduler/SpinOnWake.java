package flowtest.scheduler;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Waits for {@code in}, sets {@code running}, then computes (a busy loop, no wait) until {@code release}
 * is set: a flow that stays on whatever thread resumed it while a test looks at it.
 */
public class SpinOnWake implements Callable<Object> {
    private final CompletableFuture<String> in;
    private final AtomicBoolean running;
    private final AtomicBoolean release;

    public SpinOnWake(CompletableFuture<String> in, AtomicBoolean running, AtomicBoolean release) {
        this.in = in;
        this.running = running;
        this.release = release;
    }

    @Override
    public Object call() {
        String value = in.join();
        running.set(true);
        while (!release.get()) {
            Thread.onSpinWait();
        }
        return value;
    }
}
