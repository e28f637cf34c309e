package flowtest.agent;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/** A task the child JVM creates with {@code new}: it awaits through an in-scope lambda (a class the agent generates). */
public final class Direct implements Callable<String> {

    /** An in-scope functional interface: its lambdas are desugared into classes of their own. */
    interface Step {
        String apply(CompletableFuture<String> f) throws Exception;
    }

    private final CompletableFuture<String> future;

    /** Creates a task awaiting {@code future}. */
    public Direct(CompletableFuture<String> future) {
        this.future = future;
    }

    @Override
    public String call() throws Exception {
        Step step = f -> "got " + f.join();
        return step.apply(future);
    }
}
