package flowtest.conformance.exceptions;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/** {@code join()} on a null field: the helpful message names the field. */
public final class NullFieldJoin implements Callable<Object> {

    private CompletableFuture<String> reply;

    @Override
    public Object call() {
        return reply.join();
    }
}
