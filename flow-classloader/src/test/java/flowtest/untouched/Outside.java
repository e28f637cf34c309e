package flowtest.untouched;

import java.util.concurrent.CompletableFuture;

/** Outside the included packages: must come from the parent loader, unchanged. */
public class Outside {
    public static int block() {
        return CompletableFuture.completedFuture(1).join();
    }
}
