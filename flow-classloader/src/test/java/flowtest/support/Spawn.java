package flowtest.support;

import dev.flow.FlowScheduler;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/**
 * Test support outside the instrumented scope: starts a task next to the caller. Inside a flow the
 * task becomes a sibling flow on the same scheduler (so on one worker both share that worker);
 * elsewhere it runs on a new thread, as thread-per-session code would.
 */
public final class Spawn {

    private Spawn() {
    }

    /** Starts {@code task} as a sibling flow, or on a new thread outside a flow; returns its result. */
    public static <T> CompletableFuture<T> start(Callable<T> task) {
        FlowScheduler s = FlowScheduler.current();
        if (s != null) {
            return s.submit(task).toCompletionStage().toCompletableFuture();
        }
        return onThread(task);
    }

    /** Runs {@code task} on a new daemon thread, never as a flow; returns its result. */
    public static <T> CompletableFuture<T> onThread(Callable<T> task) {
        CompletableFuture<T> out = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                out.complete(task.call());
            } catch (Throwable e) {
                out.completeExceptionally(e);
            }
        }, "spawned");
        t.setDaemon(true);
        t.start();
        return out;
    }
}
