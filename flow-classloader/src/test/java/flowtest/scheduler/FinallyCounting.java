package flowtest.scheduler;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Suspends in one of three ways ({@code "sleep"}, {@code "timed"}: a timed get on a future nobody
 * completes, {@code "future"}: an untimed get on it) and counts its finally block.
 */
public class FinallyCounting implements Callable<Object> {
    private final String how;
    private final CompletableFuture<?> never;
    private final AtomicInteger started;
    private final AtomicInteger finallies;

    public FinallyCounting(String how, CompletableFuture<?> never, AtomicInteger started, AtomicInteger finallies) {
        this.how = how;
        this.never = never;
        this.started = started;
        this.finallies = finallies;
    }

    @Override
    public Object call() throws Exception {
        started.incrementAndGet();
        try {
            switch (how) {
                case "sleep":
                    Thread.sleep(3_600_000L);
                    return "slept";
                case "timed":
                    return never.get(1, TimeUnit.HOURS);
                default:
                    return never.get();
            }
        } finally {
            finallies.incrementAndGet();
        }
    }
}
