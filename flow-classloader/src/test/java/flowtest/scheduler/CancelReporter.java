package flowtest.scheduler;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/** Sleeps or gets a future nobody completes, and records what it caught when cancelled. */
public class CancelReporter implements Callable<Object> {
    private final String how;
    private final CompletableFuture<?> never;
    private final AtomicReference<Object> caught;

    public CancelReporter(String how, CompletableFuture<?> never, AtomicReference<Object> caught) {
        this.how = how;
        this.never = never;
        this.caught = caught;
    }

    @Override
    public Object call() throws Exception {
        try {
            if (how.equals("sleep")) {
                Thread.sleep(3_600_000L);
            } else if (how.equals("join")) {
                never.join();
            } else {
                never.get();
            }
            return "not cancelled";
        } catch (Exception e) {
            caught.set(e);
            throw e;
        }
    }
}
