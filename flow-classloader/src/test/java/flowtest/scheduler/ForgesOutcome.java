package flowtest.scheduler;

import dev.flow.internal.FlowState;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/**
 * Tries to set its own outcome and to take its task again through the methods its flow root uses,
 * before and after a suspension, then returns {@code "real"}.
 */
public class ForgesOutcome implements Callable<Object> {
    private final CompletableFuture<String> future;

    public ForgesOutcome(CompletableFuture<String> future) {
        this.future = future;
    }

    @Override
    public Object call() {
        String refused = forge();
        String got = future.join();
        return got + "," + refused + "," + forge();
    }

    private static String forge() {
        FlowState.taskReturned("forged");
        FlowState.taskThrew(new IllegalStateException("forged"));
        try {
            FlowState.startingTask();
            return "task taken";
        } catch (IllegalStateException e) {
            return "refused";
        }
    }
}
