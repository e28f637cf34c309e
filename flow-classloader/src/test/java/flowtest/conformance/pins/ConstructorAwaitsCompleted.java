package flowtest.conformance.pins;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/** A constructor awaits a future that is already complete: it would never block, but it could. */
public final class ConstructorAwaitsCompleted implements Callable<Object> {

    static final class Greeting {
        final String text;

        Greeting() throws Exception {
            text = CompletableFuture.completedFuture("hello").get();
        }
    }

    @Override
    public Object call() throws Exception {
        return new Greeting().text;
    }
}
