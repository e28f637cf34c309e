package flowtest.lazy;

import java.util.concurrent.CompletableFuture;

/** Awaits inside a monitor (a pin site), and is never loaded by the tests. */
public final class Unused {
    private Unused() {
    }

    static int held(CompletableFuture<Integer> f) {
        synchronized (Unused.class) {
            return f.join();
        }
    }
}
